import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import {
  editorEntries,
  HERO,
  newSite,
  patchEntry,
  type Site,
  sync,
  visitorEntries,
} from '../helpers/content.js';
import { bearer, call, newProject } from '../helpers/factories.js';

const TEXT = { componentId: 'Text', instanceKey: 'text', fields: [{ key: 'body', type: 'text' }] };

describeEachDb('GET /v1/pages', (ctx) => {
  const list = (site: Site, headers: Record<string, string> = bearer(site.editor.token)) =>
    call(ctx.app, { method: 'GET', url: '/v1/pages', headers });

  it('a project without pages answers an empty list', async () => {
    const site = await newSite(ctx.app);
    const res = await list(site);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: [], error: null });
  });

  it('lists every page by pageId in code-unit order, with components, published, drafts and the latest change', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/a', [HERO, TEXT]);
    await sync(ctx.app, site, '/Z', [HERO]);
    await sync(ctx.app, site, '/B', [TEXT]);
    const [hero, text] = await editorEntries(ctx.app, site, '/a');
    // hero: published and unchanged; text: published, then edited (a draft again).
    await patchEntry(ctx.app, site, hero!.id, { fields: { title: 'Hi' }, status: 'published' });
    await patchEntry(ctx.app, site, text!.id, { fields: { body: 'v1' }, status: 'published' });
    const last = await patchEntry(ctx.app, site, text!.id, { fields: { body: 'v2' } });

    const res = await list(site);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const pages = res.body.data as { pageId: string; updatedAt: string }[];
    assert.deepEqual(
      pages.map((p) => p.pageId),
      ['/B', '/Z', '/a'],
    );
    const a = pages[2] as Record<string, unknown>;
    assert.deepEqual(
      { ...a, updatedAt: undefined },
      { pageId: '/a', shared: false, components: 2, published: 2, drafts: 1, updatedAt: undefined },
    );
    assert.equal(a.updatedAt, last.body.data.updatedAt);
    assert.deepEqual(
      { ...pages[0], updatedAt: undefined },
      { pageId: '/B', shared: false, components: 1, published: 0, drafts: 1, updatedAt: undefined },
    );
    assert.ok(!Number.isNaN(Date.parse(pages[0]!.updatedAt)));
  });

  it('any member may list; a visitor key alone is 401 and another project is 403', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [HERO]);
    assert.equal((await list(site, bearer(site.admin.token))).body.data.length, 1);
    assert.equal((await list(site, site.key)).status, 401);
    const other = await newProject(ctx.app);
    const res = await list(site, { ...bearer(other.admin.token), 'x-cms-project-id': site.project.id });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'forbidden');
    // The other project's own list does not show this project's pages.
    assert.deepEqual((await list(site, bearer(other.admin.token))).body.data, []);
  });

  const ids = (res: { body: { data: { pageId: string }[] } }) => res.body.data.map((p) => p.pageId);
  const get = (site: Site, query: string) =>
    call(ctx.app, { method: 'GET', url: `/v1/pages?${query}`, headers: bearer(site.editor.token) });

  it('a shared page (@site) syncs, reads and publishes like any page, and is marked shared', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '@site', [HERO]);
    await sync(ctx.app, site, '/', [TEXT]);
    const [hero] = await editorEntries(ctx.app, site, '@site');
    const published = await patchEntry(ctx.app, site, hero!.id, {
      fields: { title: 'Menu' },
      status: 'published',
    });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    const live = await visitorEntries(ctx.app, site, '@site');
    assert.deepEqual(
      live.map((e) => e.fields),
      [{ title: 'Menu' }],
    );
    const res = await list(site);
    assert.deepEqual(
      res.body.data.map((p: { pageId: string; shared: boolean }) => [p.pageId, p.shared]),
      [
        ['/', false],
        ['@site', true],
      ],
    );
    // The snapshot carries it like any page.
    const snapshot = await call(ctx.app, { method: 'GET', url: '/v1/snapshot', headers: site.key });
    assert.deepEqual(Object.keys(snapshot.body.data.content), ['@site']);
  });

  it('orders by UTF-16 code units on both databases, not by code points or a collation', async () => {
    const site = await newSite(ctx.app);
    // U+1F600 is the surrogate pair D83D DE00, below U+FF21 in code units but above it in code points.
    for (const pageId of ['/\uff21', '/\u{1f600}', '/b', '/B', '/é'])
      await sync(ctx.app, site, pageId, [TEXT]);
    const expected = ['/B', '/b', '/é', '/\u{1f600}', '/\uff21'];
    assert.deepEqual(ids(await list(site)), expected);
    // Page by page, the same order.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await get(site, `limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      seen.push(...ids(res));
      cursor = res.body.meta?.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, expected);
  });

  it('pages with limit and cursor; meta.nextCursor only while more remain', async () => {
    const site = await newSite(ctx.app);
    for (const n of [1, 2, 3, 4, 5]) await sync(ctx.app, site, `/p${n}`, [TEXT]);
    const first = await get(site, 'limit=2');
    assert.deepEqual(ids(first), ['/p1', '/p2']);
    assert.equal(typeof first.body.meta.nextCursor, 'string');
    const second = await get(site, `limit=2&cursor=${first.body.meta.nextCursor}`);
    assert.deepEqual(ids(second), ['/p3', '/p4']);
    const third = await get(site, `limit=2&cursor=${second.body.meta.nextCursor}`);
    assert.deepEqual(ids(third), ['/p5']);
    assert.equal(third.body.meta, undefined);
    // A cursor after the longest page id there can be (512 characters of 4 UTF-8 bytes each).
    const longest = `/${'\u{1f600}'.repeat(511)}`;
    await sync(ctx.app, site, longest, [TEXT]);
    await sync(ctx.app, site, '/\uff21', [TEXT]); // after it in code units
    const atLongest = await get(site, `limit=1&cursor=${second.body.meta.nextCursor}`);
    assert.deepEqual(ids(atLongest), ['/p5']);
    const afterP5 = await get(site, `limit=1&cursor=${atLongest.body.meta.nextCursor}`);
    assert.deepEqual(ids(afterP5), [longest]);
    const pastLongest = await get(site, `limit=1&cursor=${afterP5.body.meta.nextCursor}`);
    assert.equal(pastLongest.status, 200, JSON.stringify(pastLongest.body));
    assert.deepEqual(ids(pastLongest), ['/\uff21']);
    for (const pageId of [longest, '/\uff21']) {
      await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/pages/${encodeURIComponent(pageId)}`,
        headers: { ...site.key, ...bearer(site.admin.token) },
      });
    }
    // Exactly a limit's worth: no cursor to an empty page.
    const all = await get(site, 'limit=5');
    assert.equal(all.body.data.length, 5);
    assert.equal(all.body.meta, undefined);
    // Without a limit, up to 1000 in one answer and no meta, as before pagination.
    const plain = await list(site);
    assert.deepEqual(Object.keys(plain.body), ['data', 'error']);
    assert.equal(plain.body.data.length, 5);
  });

  it('?q= keeps the pages whose id contains the text, case-insensitively, and pages too', async () => {
    const site = await newSite(ctx.app);
    for (const pageId of ['/Blog/one', '/blog/two', '/about', '/BLOG', '@site', '/Émile'])
      await sync(ctx.app, site, pageId, [TEXT]);
    assert.deepEqual(ids(await get(site, 'q=blog')), ['/BLOG', '/Blog/one', '/blog/two']);
    assert.deepEqual(ids(await get(site, 'q=bLoG%2Ft')), ['/blog/two']);
    assert.deepEqual(ids(await get(site, 'q=%40')), ['@site']);
    assert.deepEqual(ids(await get(site, 'q=%C3%A9mile')), ['/Émile']);
    // LIKE wildcards are text like any other.
    assert.deepEqual(ids(await get(site, 'q=%25')), []);
    assert.deepEqual(ids(await get(site, 'q=_')), []);
    assert.deepEqual(ids(await get(site, 'q=nothing')), []);
    assert.equal(ids(await get(site, 'q=')).length, 6);
    const first = await get(site, 'q=BLOG&limit=2');
    assert.deepEqual(ids(first), ['/BLOG', '/Blog/one']);
    const rest = await get(site, `q=BLOG&limit=2&cursor=${first.body.meta.nextCursor}`);
    assert.deepEqual(ids(rest), ['/blog/two']);
    assert.equal(rest.body.meta, undefined);
  });

  it('a bad cursor, limit or q is a 400 in the envelope', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [TEXT]);
    for (const query of ['cursor=***', 'cursor=%2F%2F%2F', 'limit=0', 'limit=1001', 'limit=x', 'other=1']) {
      const res = await get(site, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'validation_failed', query);
    }
    const long = await get(site, `q=${'a'.repeat(513)}`);
    assert.equal(long.status, 400);
  });

  it('a page leaves the list with its last entry, and with DELETE /v1/pages/:pageId', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/two', [HERO, TEXT]);
    await sync(ctx.app, site, '/gone', [HERO]);
    const [hero, text] = await editorEntries(ctx.app, site, '/two');
    const del = (url: string) =>
      call(ctx.app, { method: 'DELETE', url, headers: { ...site.key, ...bearer(site.admin.token) } });
    assert.equal((await del(`/v1/content/${hero!.id}`)).status, 200);
    assert.deepEqual(ids(await list(site)), ['/gone', '/two']);
    assert.equal((await del(`/v1/content/${text!.id}`)).status, 200);
    assert.deepEqual(ids(await list(site)), ['/gone']);
    assert.equal((await del(`/v1/pages/${encodeURIComponent('/gone')}`)).status, 200);
    assert.deepEqual(ids(await list(site)), []);
    // Synced again, it comes back.
    await sync(ctx.app, site, '/gone', [HERO]);
    assert.deepEqual(ids(await list(site)), ['/gone']);
  });
});
