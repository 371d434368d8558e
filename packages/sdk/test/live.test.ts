import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio, type Entry, FolioError } from '../src/index.js';
import {
  countingFetch,
  dbKinds,
  newSite,
  ok,
  type RunningFolio,
  type Site,
  startFolio,
  waitFor,
} from './harness/folio.js';
import { startTcpProxy } from './harness/proxies.js';

const hero = { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' as const }] };
const cta = { componentId: 'Cta', instanceKey: 'cta', fields: [{ key: 'label', type: 'text' as const }] };

/** What a live stream told, in order. */
function recorder() {
  const events: { at: number; entry?: Entry; deleted?: string }[] = [];
  return {
    events,
    onEntry: (entry: Entry) => events.push({ at: Date.now(), entry }),
    onDeleted: (id: string) => events.push({ at: Date.now(), deleted: id }),
    titles: () =>
      events.map((e) =>
        e.entry ? `${e.entry.instanceKey}=${JSON.stringify(e.entry.fields)}` : `-${e.deleted}`,
      ),
  };
}

async function sitePage(folio: RunningFolio): Promise<Site> {
  const site = await newSite(folio);
  await createFolio({ url: folio.url, key: site.key }).register('/', [hero, cta]);
  await site.edit('/', 'hero', { title: 'One' });
  return site;
}

for (const kind of dbKinds()) {
  describe(`live: GET /v1/live over fetch streaming [${kind}]`, () => {
    let folio: RunningFolio;
    before(async () => {
      // One stream per project: the 429 test fills it; every other test uses a project of its own.
      folio = await startFolio(kind, { CMS_LIVE_MAX_STREAMS_PER_PROJECT: '1' });
    });
    after(() => folio?.close());

    it('starts with what the visitor sees, and receives a publish within 1 s', async () => {
      const site = await sitePage(folio);
      const sdk = createFolio({ url: folio.url, key: site.key });
      const seen = recorder();
      let ended = false;
      const stop = sdk.live('/', seen.onEntry, seen.onDeleted, { onEnd: () => (ended = true) });
      try {
        await waitFor(() => seen.events.length === 1, 5000, 'the first entry');
        assert.deepEqual(seen.titles(), ['hero={"title":"One"}']);

        const published = Date.now();
        await site.edit('/', 'hero', { title: 'Two' });
        await waitFor(() => seen.events.length === 2, 1000, 'the publish, within 1 s');
        assert.deepEqual(seen.titles(), ['hero={"title":"One"}', 'hero={"title":"Two"}']);
        assert.ok(seen.events[1]!.at - published < 1000);

        // A draft save is not the visitor's business; an unpublish is a deletion for them.
        await site.edit('/', 'cta', { label: 'Draft' }, 'draft');
        const heroId = await site.entryId('/', 'hero');
        ok(
          await site.admin.POST('/v1/content/{entryId}/unpublish', { params: { path: { entryId: heroId } } }),
        );
        await waitFor(() => seen.events.length === 3, 1000, 'the unpublish');
        assert.deepEqual(seen.events[2], { at: seen.events[2]!.at, deleted: heroId });
        assert.equal(ended, false, 'still following');
      } finally {
        stop();
      }
      await waitFor(() => ended, 5000, 'onEnd after stop()');
    });

    it('with a preview token, follows every change of the working copies', async () => {
      const site = await sitePage(folio);
      const sdk = createFolio({ url: folio.url, key: site.key, previewToken: await site.previewToken() });
      const seen = recorder();
      const stop = sdk.live('/', seen.onEntry, seen.onDeleted);
      try {
        await waitFor(() => seen.events.length === 2, 5000, 'both entries');
        await site.edit('/', 'cta', { label: 'Buy now' }, 'draft');
        await waitFor(() => seen.events.length === 3, 1000, 'the draft save');
        assert.equal(seen.events[2]?.entry?.status, 'draft');
        assert.deepEqual(seen.events[2]?.entry?.fields, { label: 'Buy now' });
      } finally {
        stop();
      }
    });

    it('reconnects after the connection drops, and catches up on what changed meanwhile', async () => {
      const site = await sitePage(folio);
      await site.edit('/', 'cta', { label: 'Buy' });
      const proxy = await startTcpProxy(folio.url);
      const wire = countingFetch();
      const failures: unknown[] = [];
      const sdk = createFolio({ url: proxy.url, key: site.key, fetch: wire.fetch });
      const seen = recorder();
      let opens = 0;
      const stop = sdk.live('/', seen.onEntry, seen.onDeleted, {
        onOpen: () => opens++,
        onError: (error) => failures.push(error),
      });
      try {
        await waitFor(() => seen.events.length === 2, 5000, 'both entries');

        // The network goes down; meanwhile the hero changes and the call to action is unpublished.
        proxy.blocked = true;
        proxy.dropAll();
        await waitFor(() => failures.length > 0, 5000, 'the drop to be noticed');
        await site.edit('/', 'hero', { title: 'Changed offline' });
        const ctaId = await site.entryId('/', 'cta');
        ok(
          await site.admin.POST('/v1/content/{entryId}/unpublish', { params: { path: { entryId: ctaId } } }),
        );
        proxy.blocked = false;

        await waitFor(() => opens === 2, 10_000, 'the reconnection');
        await waitFor(
          () => seen.titles().includes('hero={"title":"Changed offline"}'),
          2000,
          'the missed publish',
        );
        await waitFor(() => seen.events.some((e) => e.deleted === ctaId), 2000, 'the missed unpublish');
        assert.ok(failures.every((e) => e instanceof FolioError && e.code === 'network'));

        // And it is live again.
        await site.edit('/', 'hero', { title: 'Back online' });
        await waitFor(() => seen.titles().at(-1) === 'hero={"title":"Back online"}', 1000, 'a publish after');
        assert.ok(wire.requests.filter((r) => r.path.startsWith('/v1/live')).length >= 2);
      } finally {
        stop();
        await proxy.close();
      }
    });

    it('replaces a stream that went silent (a connection lost without a reset)', async () => {
      const site = await sitePage(folio);
      const proxy = await startTcpProxy(folio.url);
      const failures: unknown[] = [];
      const sdk = createFolio({ url: proxy.url, key: site.key });
      const seen = recorder();
      let opens = 0;
      const stop = sdk.live('/', seen.onEntry, seen.onDeleted, {
        idleTimeoutMs: 1000,
        onOpen: () => opens++,
        onError: (error) => failures.push(error),
      });
      try {
        await waitFor(() => seen.events.length === 1, 5000, 'the first entry');
        proxy.freezeAll();
        await site.edit('/', 'hero', { title: 'While frozen' });
        await waitFor(() => opens === 2, 5000, 'a new stream');
        assert.ok(failures[0] instanceof FolioError && failures[0].code === 'timeout');
        await waitFor(() => seen.titles().at(-1) === 'hero={"title":"While frozen"}', 2000, 'the publish');
      } finally {
        stop();
        await proxy.close();
      }
    });

    it('waits Retry-After when the server has too many streams (429), then connects; stop frees the stream', async () => {
      const site = await sitePage(folio);
      // Another reader holds the project's only stream.
      const holder = new AbortController();
      const held = await fetch(`${folio.url}/v1/live?pageId=%2F`, {
        headers: { 'x-cms-key': site.key },
        signal: holder.signal,
      });
      assert.equal(held.status, 200);

      const wire = countingFetch();
      const failures: unknown[] = [];
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      const seen = recorder();
      const stop = sdk.live('/', seen.onEntry, seen.onDeleted, { onError: (e) => failures.push(e) });
      try {
        await waitFor(() => failures.length === 1, 5000, 'the 429');
        const refused = failures[0];
        assert.ok(refused instanceof FolioError);
        assert.equal(refused.code, 'rate_limited');
        assert.equal(refused.status, 429);
        assert.equal(refused.retryAfter, 5);
        const refusedAt = Date.now();
        holder.abort();

        await waitFor(() => seen.events.length === 1, 10_000, 'the stream after Retry-After');
        assert.ok(Date.now() - refusedAt >= 4500, 'not before Retry-After');
        assert.equal(wire.requests.filter((r) => r.path.startsWith('/v1/live')).length, 2);
      } finally {
        stop();
      }
      // The stopped stream's slot is free again (the server saw the connection close).
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        const probe = new AbortController();
        const res = await fetch(`${folio.url}/v1/live?pageId=%2F`, {
          headers: { 'x-cms-key': site.key },
          signal: probe.signal,
        });
        status = res.status;
        probe.abort();
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(status, 200);
    });

    it('stops on an answer that waiting cannot fix (a wrong key) and reports it once', async () => {
      const wire = countingFetch();
      const errors: unknown[] = [];
      const sdk = createFolio({
        url: folio.url,
        key: 'cms_pk_unknown',
        fetch: wire.fetch,
        onError: (e) => errors.push(e),
      });
      let ends = 0;
      let ended!: () => void;
      const end = new Promise<void>((resolve) => {
        ended = resolve;
      });
      const stop = sdk.live('/', () => {}, undefined, {
        onEnd: () => {
          ends += 1;
          ended();
        },
      });
      await end; // following has ended for good: no retry is pending
      stop();
      assert.equal(ends, 1, 'onEnd once, even with stop() after it');
      assert.equal(errors.length, 1);
      assert.equal(wire.requests.length, 1);
      assert.ok(errors[0] instanceof FolioError);
      assert.equal((errors[0] as FolioError).code, 'unauthorized');
    });
  });
}
