import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio, FolioError, type FolioErrorCode } from '../src/index.js';
import {
  countingFetch,
  dbKinds,
  newSite,
  type RunningFolio,
  type Site,
  startFolio,
} from './harness/folio.js';
import { startEdge } from './harness/proxies.js';

/** Asserts a promise rejects with a FolioError of this code and status; returns it. */
async function rejectsWith(
  promise: Promise<unknown>,
  code: FolioErrorCode,
  status: number,
): Promise<FolioError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof FolioError, `expected a FolioError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  assert.equal(caught.status, status);
  return caught;
}

const component = (n: number) => ({
  componentId: 'Block',
  instanceKey: `block-${n}`,
  fields: [{ key: 'text', type: 'text' as const }],
});

for (const kind of dbKinds()) {
  describe(`errors: typed codes, retries, timeouts [${kind}]`, () => {
    let folio: RunningFolio;
    let site: Site;
    before(async () => {
      folio = await startFolio(kind, { CMS_SYNC_LIMIT_PER_MINUTE: '2' });
      site = await newSite(folio);
    });
    after(() => folio?.close());

    it("carries the API's code: a wrong key, a wrong preview token, drafts without one", async () => {
      const stranger = createFolio({ url: folio.url, key: 'cms_pk_not-a-key' });
      const error = await rejectsWith(stranger.page('/'), 'unauthorized', 401);
      assert.match(error.message, /./);

      const forged = createFolio({ url: folio.url, key: site.key, previewToken: 'cms_pv_forged' });
      await rejectsWith(forged.page('/'), 'unauthorized', 401);

      const visitor = createFolio({ url: folio.url, key: site.key });
      await rejectsWith(visitor.objects({ draft: true }), 'forbidden', 403);
    });

    it('a definitions sync over the limit is rate_limited with retryAfter, and is not repeated', async () => {
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch, onError: () => {} });
      let refused: FolioError | undefined;
      let calls = 0;
      // The limit is 2 a minute in fixed windows: within 6 syncs one is refused, whatever the clock.
      for (let n = 0; n < 6 && !refused; n++, calls++) {
        refused = await sdk.register(`/limited-${n}`, [component(n)]).then(
          () => undefined,
          (error: FolioError) => error,
        );
      }
      assert.ok(refused instanceof FolioError);
      assert.equal(refused.code, 'rate_limited');
      assert.equal(refused.status, 429);
      assert.ok(refused.retryAfter !== undefined && refused.retryAfter > 0 && refused.retryAfter <= 60);
      assert.equal(wire.requests.length, calls, 'one request per register, the refused one included');
      assert.equal(wire.requests.at(-1)?.status, 429);
    });

    it('a read refused with 429 and Retry-After is sent again after that wait', async () => {
      let refusals = 1;
      const edge = await startEdge(folio.url, (request) =>
        request.url?.startsWith('/v1/content/') && refusals-- > 0
          ? { status: 429, headers: { 'retry-after': '1' } }
          : undefined,
      );
      try {
        const sdk = createFolio({ url: edge.url, key: site.key });
        assert.deepEqual(await sdk.page('/'), []);
        assert.deepEqual(
          edge.seen.map((s) => s.answer),
          [429, 'forwarded'],
        );
        const waited = edge.seen[1]!.at - edge.seen[0]!.at;
        assert.ok(waited >= 950, `waited ${waited} ms`);
      } finally {
        await edge.close();
      }
    });

    it('a 503 without Retry-After is retried with a backoff, at most `retries` times', async () => {
      const edge = await startEdge(folio.url, (request) =>
        request.url === '/v1/snapshot' ? { status: 503 } : undefined,
      );
      try {
        const sdk = createFolio({ url: edge.url, key: site.key, retries: 2 });
        await rejectsWith(sdk.snapshot(), 'unavailable', 503);
        assert.equal(edge.seen.length, 3);
      } finally {
        await edge.close();
      }
    });

    it('a Retry-After longer than maxRetryWaitMs is not waited: the error says how long', async () => {
      const edge = await startEdge(folio.url, () => ({ status: 429, headers: { 'retry-after': '120' } }));
      try {
        const sdk = createFolio({ url: edge.url, key: site.key, maxRetryWaitMs: 5000 });
        const started = Date.now();
        const error = await rejectsWith(sdk.page('/'), 'unavailable', 429);
        assert.equal(error.retryAfter, 120);
        assert.ok(Date.now() - started < 1000);
        assert.equal(edge.seen.length, 1);
      } finally {
        await edge.close();
      }
    });

    it('times out when no answer comes within timeoutMs, and a closed port is a network error', async () => {
      const edge = await startEdge(folio.url, () => 'hang');
      try {
        const sdk = createFolio({ url: edge.url, key: site.key, timeoutMs: 300 });
        const started = Date.now();
        await rejectsWith(sdk.page('/'), 'timeout', 0);
        assert.ok(Date.now() - started < 2000);
      } finally {
        await edge.close();
      }
      const nowhere = createFolio({ url: edge.url, key: site.key });
      const error = await rejectsWith(nowhere.snapshot(), 'network', 0);
      assert.ok(error.cause);
    });

    it("the caller's own AbortSignal aborts a read with an AbortError, not a FolioError", async () => {
      const edge = await startEdge(folio.url, () => 'hang');
      try {
        const sdk = createFolio({ url: edge.url, key: site.key });
        const controller = new AbortController();
        const reading = sdk.page('/', { signal: controller.signal });
        setTimeout(() => controller.abort(), 50);
        await assert.rejects(reading, (error: Error) => error.name === 'AbortError');
      } finally {
        await edge.close();
      }
    });
  });
}
