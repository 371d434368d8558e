import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newSite, pageUrl, patchEntry, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

/**
 * The visitor read fast path (src/http/fast-reads.ts) answers before Fastify, on the real server
 * only (app.inject does not go through it), so these tests talk to a listening server: they prove it
 * answers exactly what the normal route answers, and steps aside whenever it cannot be sure.
 */
describeEachDb('visitor read fast path', (ctx) => {
  let base = '';
  before(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await ctx.app.close();
  });

  async function publishedSite(title: string) {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/');
    const [entry] = (await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.editing })).body
      .data;
    const res = await patchEntry(ctx.app, site, entry.id, { fields: { title }, status: 'published' });
    assert.equal(res.status, 200);
    return { site, entryId: entry.id as string };
  }

  const get = (path: string, headers: Record<string, string>) => fetch(`${base}${path}`, { headers });

  it('answers 304 with the same headers as the route, for pages and the snapshot', async () => {
    const { site } = await publishedSite('Hello');
    for (const path of [pageUrl('/'), '/v1/snapshot']) {
      const first = await get(path, site.key);
      assert.equal(first.status, 200);
      await first.arrayBuffer();
      const etag = first.headers.get('etag')!;
      // The route's own 304 (inject never takes the fast path)...
      const routed = await ctx.app.inject({
        method: 'GET',
        url: path,
        headers: { ...site.key, 'if-none-match': etag },
      });
      assert.equal(routed.statusCode, 304);
      // ...and the fast path's, over the wire.
      const fast = await get(path, { ...site.key, 'if-none-match': etag, 'x-request-id': 'fast-1' });
      assert.equal(fast.status, 304);
      assert.equal(fast.headers.get('x-request-id'), 'fast-1');
      for (const name of ['etag', 'cache-control', 'vary']) {
        assert.equal(fast.headers.get(name), routed.headers[name], `${path} ${name}`);
      }
    }
  });

  it('answers a cached page with the same bytes and headers as the route', async () => {
    const { site } = await publishedSite('Same bytes');
    const first = await get(pageUrl('/'), site.key); // loads the page into the cache
    await first.arrayBuffer();
    const routed = await ctx.app.inject({ method: 'GET', url: pageUrl('/'), headers: site.key });
    assert.equal(routed.statusCode, 200);
    const fast = await get(pageUrl('/'), { ...site.key, 'x-request-id': 'fast-2' });
    assert.equal(fast.status, 200);
    assert.equal(fast.headers.get('x-request-id'), 'fast-2');
    assert.deepEqual(Buffer.from(await fast.arrayBuffer()), routed.rawPayload);
    const names = (headers: Iterable<string>) =>
      [...headers].filter((n) => !['x-request-id', 'date', 'connection', 'keep-alive'].includes(n)).sort();
    assert.deepEqual(names(fast.headers.keys()), names(Object.keys(routed.headers)));
    for (const name of names(fast.headers.keys())) {
      assert.equal(fast.headers.get(name), String(routed.headers[name]), name);
    }
  });

  it('a publish changes the answer at once: the old ETag gets the new page', async () => {
    const { site, entryId } = await publishedSite('Before');
    const first = await get(pageUrl('/'), site.key);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    assert.equal((await get(pageUrl('/'), { ...site.key, 'if-none-match': etag })).status, 304);
    await patchEntry(ctx.app, site, entryId, { fields: { title: 'After' }, status: 'published' });
    const fresh = await get(pageUrl('/'), { ...site.key, 'if-none-match': etag });
    assert.equal(fresh.status, 200);
    const body = (await fresh.json()) as { data: { fields: { title: string } }[] };
    assert.equal(body.data[0]?.fields.title, 'After');
    const plain = (await (await get(pageUrl('/'), site.key)).json()) as typeof body;
    assert.equal(plain.data[0]?.fields.title, 'After', 'the cached 200 too');
  });

  it('a rotated key is refused, not revalidated', async () => {
    const { site } = await publishedSite('Rotate');
    const first = await get(pageUrl('/'), site.key);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const rotated = await call(ctx.app, {
      method: 'POST',
      url: `/v1/projects/${site.project.id}/rotate-key`,
      headers: bearer(site.admin.token),
    });
    assert.equal(rotated.status, 200);
    const res = await get(pageUrl('/'), { ...site.key, 'if-none-match': etag });
    assert.equal(res.status, 401);
  });

  it('steps aside for sessions, browsers and a disagreeing project header', async () => {
    const { site } = await publishedSite('Aside');
    const other = await newSite(ctx.app, 'Other');
    const first = await get(pageUrl('/'), site.key);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const conditional = { ...site.key, 'if-none-match': etag };

    const editor = await get(pageUrl('/'), { ...conditional, ...bearer(site.editor.token) });
    assert.equal(editor.status, 200, 'a session sees drafts: never a visitor 304');
    await editor.arrayBuffer();

    const browser = await get(pageUrl('/'), { ...conditional, origin: 'https://example.com' });
    assert.equal(browser.status, 304);
    assert.equal(
      browser.headers.get('access-control-allow-origin'),
      'https://example.com',
      'CORS from the route',
    );

    const mismatch = await get(pageUrl('/'), { ...conditional, 'x-cms-project-id': other.project.id });
    assert.equal(mismatch.status, 400);
    await mismatch.arrayBuffer();
  });
});
