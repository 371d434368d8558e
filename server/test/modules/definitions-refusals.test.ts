import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { describeEachDb } from '../helpers/app.js';
import { HERO, newSite, type Site } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

/**
 * Refusals before the body is read (contract §23 "cheap refusals", issue 42 items 2 and 7): a
 * publishable-key sync is checked against the project's definitionSync mode and the rate limit
 * before its body is parsed, and a body over 1 MB with the key alone is 413 without being read
 * whole. Bodies that are not even JSON show that nothing parsed them: a parse would answer 400.
 */

const MB = 1024 * 1024;
const notJson = (bytes: number) => 'x'.repeat(bytes);

const syncRaw = (app: FastifyInstance, headers: Record<string, string>, payload: string | Readable) =>
  call(app, {
    method: 'POST',
    url: '/v1/definitions/sync',
    headers: { 'content-type': 'application/json', ...headers },
    payload,
  });

const setMode = async (app: FastifyInstance, site: Site, definitionSync: string) => {
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/projects/${site.project.id}`,
    headers: bearer(site.admin.token),
    payload: { definitionSync },
  });
  assert.equal(res.status, 200);
};

/** A body of `total` bytes streamed in 64 KB chunks (no Content-Length: chunked); counts what was read. */
function streamed(total: number) {
  const counter = { pulled: 0 };
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const stream = new Readable({
    read() {
      if (counter.pulled >= total) return this.push(null);
      counter.pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, counter };
}

/** The costly pattern (item 2), declared with a long default that it must check. */
const COSTLY_PATTERN = '(?:\\p{L}|\\p{N}|\\p{P}).*a(?:\\p{L}|\\p{N}){999}!';
const costlyComponent = (i: number, defaultLength: number) => ({
  componentId: 'Costly',
  instanceKey: `costly${i}`,
  fields: [
    { key: 'title', type: 'text', pattern: { source: COSTLY_PATTERN }, default: 'a'.repeat(defaultLength) },
  ],
});

describeEachDb('definitions sync: refusals before the body is read', (ctx) => {
  it("a locked project's publishable-key sync is 403 whatever its body: 4 MB, not JSON, never parsed", async () => {
    const site = await newSite(ctx.app);
    await setMode(ctx.app, site, 'locked');
    const big = await syncRaw(ctx.app, site.key, notJson(4 * MB));
    assert.equal(big.status, 403, JSON.stringify(big.body));
    assert.equal(big.body.error.code, 'forbidden');
    // A valid 4 MB JSON body too: refused before its parse and its schema check.
    const json = JSON.stringify({
      pageId: '/',
      components: [{ ...HERO, fields: [{ key: 'title', type: 'text', help: 'h'.repeat(4 * MB) }] }],
    });
    const valid = await syncRaw(ctx.app, site.key, json);
    assert.equal(valid.status, 403);
    // A member still syncs a locked project (the refusal is the key's).
    const member = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.editing,
      payload: { pageId: '/', components: [HERO] },
    });
    assert.equal(member.status, 200);
  });

  it('a locked project refuses 40 costly patterns with 60,000-character defaults at once: defaults are checked after admission', async () => {
    const site = await newSite(ctx.app);
    await setMode(ctx.app, site, 'locked');
    // The setup (2.4 MB): checking these defaults against the pattern held the event loop
    // for 208 s before the lock answered.
    const components = Array.from({ length: 40 }, (_, i) => costlyComponent(i, 60_000));
    const started = performance.now();
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.key,
      payload: { pageId: '/', components },
    });
    assert.equal(res.status, 403, JSON.stringify(res.body).slice(0, 300));
    // Generous for a shared machine: today's order took minutes.
    assert.ok(performance.now() - started < 3_000, `answered in ${performance.now() - started} ms`);
    // The same order in a small body (under the 1 MB cut, so parsed and schema-checked): a default
    // that breaks its rule is still the lock's 403, not the default's 400.
    const broken = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.key,
      payload: {
        pageId: '/',
        components: [
          {
            componentId: 'Text',
            instanceKey: 'intro',
            fields: [{ key: 'title', type: 'text', pattern: { source: '[a-z]+' }, default: 'NOT LOWER' }],
          },
        ],
      },
    });
    assert.equal(broken.status, 403, JSON.stringify(broken.body));
  });

  it('a publishable-key body over 1 MB is 413 without being read whole: by Content-Length, and chunked', async () => {
    const site = await newSite(ctx.app);
    const sized = await syncRaw(ctx.app, site.key, notJson(1.5 * MB));
    assert.equal(sized.status, 413, JSON.stringify(sized.body));
    assert.equal(sized.body.error.code, 'payload_too_large');
    assert.match(
      sized.body.error.message,
      /^A request with the publishable key alone may carry at most 1 MB/,
    );
    assert.equal(sized.headers.connection, 'close');

    // A Content-Length over the limit: nothing of the body is read.
    const declared = streamed(1.5 * MB);
    const byLength = await syncRaw(
      ctx.app,
      { ...site.key, 'content-length': String(1.5 * MB) },
      declared.stream,
    );
    assert.equal(byLength.status, 413);
    assert.ok(declared.counter.pulled <= 64 * 1024, `read ${declared.counter.pulled} bytes`);

    // Chunked: cut just past 1 MB, not read to its 40 MB end.
    const chunked = streamed(40 * MB);
    const cut = await syncRaw(ctx.app, site.key, chunked.stream);
    assert.equal(cut.status, 413, JSON.stringify(cut.body));
    assert.equal(cut.body.error.code, 'payload_too_large');
    assert.ok(chunked.counter.pulled < 2 * MB, `read ${chunked.counter.pulled} bytes`);

    // Just under the limit is read and parsed as before (here: not JSON, so 400).
    const under = await syncRaw(ctx.app, site.key, notJson(MB - 10));
    assert.equal(under.status, 400);
    assert.equal(under.body.error.code, 'invalid_json');
  });

  it("a member's session or a write secret key keeps the general body limit", async () => {
    const site = await newSite(ctx.app);
    // A session beside the key is a member: 1.5 MB is read and parsed (not JSON: 400, not 413).
    const withSession = await syncRaw(ctx.app, site.editing, notJson(1.5 * MB));
    assert.equal(withSession.status, 400, JSON.stringify(withSession.body));
    assert.equal(withSession.body.error.code, 'invalid_json');
    const sessionOnly = await syncRaw(
      ctx.app,
      { ...bearer(site.editor.token), 'x-cms-project-id': site.project.id },
      notJson(1.5 * MB),
    );
    assert.equal(sessionOnly.body.error.code, 'invalid_json');
    const created = await call(ctx.app, {
      method: 'POST',
      url: '/v1/api-keys',
      headers: bearer(site.admin.token),
      payload: { name: 'sync', scope: 'selected', projectIds: [site.project.id], access: 'write' },
    });
    assert.equal(created.status, 201);
    const withKey = await syncRaw(ctx.app, bearer(created.body.data.key), notJson(1.5 * MB));
    assert.equal(withKey.body.error.code, 'invalid_json');
    // Over the general limit (CMS_BODY_LIMIT_BYTES, 5 MB by default) a member gets Fastify's 413.
    const over = await syncRaw(ctx.app, site.editing, notJson(5 * MB + 1));
    assert.equal(over.status, 413);
  });
});

describeEachDb(
  'definitions sync: the limit answers before the body is read',
  (ctx) => {
    it('once the limit is spent an invalid body is 429, not 400, and costs no counted write', async () => {
      const site = await newSite(ctx.app);
      const body = JSON.stringify({ pageId: '/', components: [HERO] });
      assert.equal((await syncRaw(ctx.app, site.key, body)).status, 200);
      assert.equal((await syncRaw(ctx.app, site.key, body)).status, 200);
      for (const payload of [notJson(100), '{"pageId": 42}', notJson(4 * MB)]) {
        const res = await syncRaw(ctx.app, site.key, payload);
        assert.equal(res.status, 429, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'rate_limited');
        assert.ok(Number(res.headers['retry-after']) >= 1);
      }
      // The first refusal was counted; the instance remembers the window is spent and counts no more.
      const row = await ctx.db
        .selectFrom('rateLimitCounts')
        .select('count')
        .where('key', '=', `definitions_sync:${site.project.id}`)
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.count), 3);
      // A member is not limited, and reads and parses as before.
      const member = await syncRaw(ctx.app, site.editing, notJson(100));
      assert.equal(member.body.error.code, 'invalid_json');
    });
  },
  { env: { CMS_SYNC_LIMIT_PER_MINUTE: '2' } },
);
