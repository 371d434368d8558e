import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pageSearchText, pageSortKey } from '../../src/shared/page-ids.js';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, HERO, newSite, patchEntry, sync, visitorEntries } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

const comp = (instanceKey: string, componentId = 'Text', fields = [{ key: 'title', type: 'text' }]) => ({
  componentId,
  instanceKey,
  fields,
});

const pageListRow = (pageId: string) => ({
  pageId,
  sortKey: pageSortKey(pageId),
  search: pageSearchText(pageId),
});

describeEachDb('definitions sync', (ctx) => {
  it('creates stub entries once; syncing again is idempotent and additive', async () => {
    const site = await newSite(ctx.app);
    const first = await sync(ctx.app, site, '/', [HERO, comp('intro')]);
    assert.deepEqual(first, { pageId: '/', components: 2, created: ['hero', 'intro'], rejected: [] });
    const entries = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(
      entries.map((e) => [e.instanceKey, e.fields, e.status]),
      [
        ['hero', {}, 'draft'],
        ['intro', {}, 'draft'],
      ],
    );
    await patchEntry(ctx.app, site, entries[0]!.id, { fields: { title: 'kept' } });

    const again = await sync(ctx.app, site, '/', [HERO, comp('intro')]);
    assert.deepEqual(again.created, []);
    // Additive: a sync naming only a new component keeps the others and their content. Entries come
    // in page order (issue 37): a sync of new components only appends them.
    const more = await sync(ctx.app, site, '/', [comp('footer')]);
    assert.deepEqual(more.created, ['footer']);
    const after = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(
      after.map((e) => e.instanceKey),
      ['hero', 'intro', 'footer'],
    );
    assert.deepEqual(after[0]?.fields, { title: 'kept' });
  });

  it('GET definitions returns the page schemas, ordered, with updated fields after a resync', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/about', [comp('b'), comp('a', 'Card', [{ key: 'image', type: 'image' }])]);
    // A member's session may replace a definition's fields (the publishable key only adds).
    const resync = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.editing,
      payload: { pageId: '/about', components: [comp('b', 'Text', [{ key: 'body', type: 'richtext' }])] },
    });
    assert.equal(resync.status, 200);
    const res = await call(ctx.app, {
      method: 'GET',
      url: `/v1/definitions/${encodeURIComponent('/about')}`,
      headers: bearer(site.editor.token),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((d: { instanceKey: string; componentId: string; fields: unknown }) => [
        d.instanceKey,
        d.componentId,
        d.fields,
      ]),
      // In page order (issue 37): the order of the first sync, which the partial resync keeps.
      [
        ['b', 'Text', [{ key: 'body', type: 'richtext' }]],
        ['a', 'Card', [{ key: 'image', type: 'image' }]],
      ],
    );
    assert.ok(res.body.data[0].updatedAt);
    const empty = await call(ctx.app, {
      method: 'GET',
      url: `/v1/definitions/${encodeURIComponent('/none')}`,
      headers: bearer(site.editor.token),
    });
    assert.deepEqual(empty.body.data, []);
    const noSession = await call(ctx.app, { method: 'GET', url: '/v1/definitions/%2F', headers: site.key });
    assert.equal(noSession.status, 401);
  });

  it('needs the publishable key, a session or a secret key', async () => {
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      payload: { pageId: '/', components: [HERO] },
    });
    assert.equal(res.status, 401);
  });

  it('rejects unknown field types, duplicates and oversized input with a 400', async () => {
    const site = await newSite(ctx.app);
    const send = (payload: unknown) =>
      call(ctx.app, {
        method: 'POST',
        url: '/v1/definitions/sync',
        headers: site.key,
        payload: payload as object,
      });
    const badType = await send({ pageId: '/', components: [comp('a', 'X', [{ key: 'k', type: 'video' }])] });
    assert.equal(badType.status, 400);
    assert.equal(badType.body.error.code, 'validation_failed');
    const dupKey = await send({ pageId: '/', components: [comp('a'), comp('a')] });
    assert.equal(dupKey.status, 400);
    assert.equal(dupKey.body.error.details[0].path, 'body.components[1].instanceKey');
    const dupField = await send({
      pageId: '/',
      components: [
        comp('a', 'X', [
          { key: 'k', type: 'text' },
          { key: 'k', type: 'url' },
        ]),
      ],
    });
    assert.equal(dupField.status, 400);
    const tooMany = await send({
      pageId: '/',
      components: Array.from({ length: 501 }, (_, i) => comp(`c${i}`)),
    });
    assert.equal(tooMany.status, 400);
    const longPath = await send({ pageId: `/${'p'.repeat(512)}`, components: [comp('a')] });
    assert.equal(longPath.status, 400);
    const longKey = await send({ pageId: '/', components: [comp('k'.repeat(129))] });
    assert.equal(longKey.status, 400);
    const control = await send({ pageId: '/a\nb', components: [comp('a')] });
    assert.equal(control.status, 400);
    // Nothing was written by the refused requests.
    assert.deepEqual(await editorEntries(ctx.app, site, '/'), []);
  });

  it('caps components per page and pages per project with a 409', async () => {
    const site = await newSite(ctx.app);
    await sync(
      ctx.app,
      site,
      '/full',
      Array.from({ length: 500 }, (_, i) => comp(`c${i}`)),
    );
    const over = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.key,
      payload: { pageId: '/full', components: [comp('one-more')] },
    });
    assert.equal(over.status, 409);
    assert.equal(over.body.error.details.limit, 500);

    // Fill the project to 20,000 pages (CMS_MAX_PAGES_PER_PROJECT's default) directly: syncs would
    // only slow the suite down. Each page is a definition and a row of the pages list, as a sync writes.
    const now = new Date().toISOString();
    const rows = Array.from({ length: 19_999 }, (_, i) => ({
      projectId: site.project.id,
      pageId: `/p${i}`,
      instanceKey: 'a',
      componentId: 'Text',
      fields: '[]',
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      await ctx.db.insertInto('componentDefinitions').values(chunk).execute();
      await ctx.db
        .insertInto('contentPages')
        .values(chunk.map((r) => ({ ...pageListRow(r.pageId), projectId: r.projectId })))
        .execute();
    }
    const newPage = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.key,
      payload: { pageId: '/page-20001', components: [comp('a')] },
    });
    assert.equal(newPage.status, 409);
    assert.equal(newPage.body.error.details.limit, 20_000);
    // Existing pages can still be synced.
    const existing = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.key,
      payload: { pageId: '/p1', components: [comp('a', 'Text', [{ key: 'x', type: 'text' }])] },
    });
    assert.equal(existing.status, 200);
  });

  it("a member's component change on a live entry reaches visitors at once", async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [HERO]);
    const [hero] = await editorEntries(ctx.app, site, '/');
    await patchEntry(ctx.app, site, hero!.id, { fields: { title: 'x' }, status: 'published' });
    assert.equal((await visitorEntries(ctx.app, site, '/'))[0]?.componentId, 'Hero');
    const change = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.editing,
      payload: { pageId: '/', components: [{ ...HERO, componentId: 'BigHero' }] },
    });
    assert.equal(change.status, 200);
    assert.equal((await visitorEntries(ctx.app, site, '/'))[0]?.componentId, 'BigHero');
  });
});
