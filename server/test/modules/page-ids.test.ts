import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, type Site, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

const TEXT = { componentId: 'Text', instanceKey: 'text', fields: [{ key: 'body', type: 'text' }] };

/** Page ids at sync (contract §15, §17): what is refused, what stays valid, and pages stored before. */
describeEachDb('page ids', (ctx) => {
  const send = (site: Site, pageId: string, query = '') =>
    call(ctx.app, {
      method: 'POST',
      url: `/v1/definitions/sync${query}`,
      headers: site.key,
      payload: { pageId, components: [TEXT] },
    });
  const pageIds = async (site: Site) =>
    (
      await call(ctx.app, { method: 'GET', url: '/v1/pages', headers: bearer(site.editor.token) })
    ).body.data.map((p: { pageId: string }) => p.pageId);

  it('a sync refuses ?, #, control characters, other whitespace, 513 characters and an entry id, saying why', async () => {
    const site = await newSite(ctx.app);
    const refused: [string, RegExp][] = [
      ['/search?q=1', /"\?"/],
      ['/about#team', /"#"/],
      ['/a\u0001b', /control characters/],
      ['/a\u007fb', /control characters/],
      ['/a\u0085b', /control characters/], // C1 (NEL)
      ['/a\u009fb', /control characters/],
      ['/a\tb', /control characters/],
      ['/a\u00a0b', /whitespace other than a space/],
      ['/a\u2028b', /whitespace other than a space/],
      ['/a\u3000b', /whitespace other than a space/],
      [`/${'p'.repeat(512)}`, /512 characters/], // the body schema's maxLength: its detail says so
      ['ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2', /entry id/],
    ];
    for (const [pageId, why] of refused) {
      for (const query of ['', '?dryRun=true']) {
        const res = await send(site, pageId, query);
        assert.equal(res.status, 400, `${JSON.stringify(pageId)} ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'validation_failed');
        const detail = res.body.error.details.find((d: { path: string }) => d.path === 'body.pageId');
        assert.ok(detail, JSON.stringify(res.body));
        assert.match(detail.message, why, JSON.stringify(pageId));
        if (pageId.length <= 512) assert.match(res.body.error.message, why);
      }
    }
    // Nothing was written.
    assert.deepEqual(await pageIds(site), []);
  });

  it('home, ids without a leading slash, spaces, @ pages, 512 characters and ent_ look-alikes are valid', async () => {
    const site = await newSite(ctx.app);
    const valid = [
      'home',
      'blog/post',
      '/a b',
      '@site',
      '@footer',
      '/é/日本/😀',
      `/${'p'.repeat(511)}`,
      'ent_short',
      'ent_01jd3zk4q7m2x8v5b6n9c0r1t2', // lower case: not the form the server makes
      '/ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
    ];
    for (const pageId of valid) {
      const res = await send(site, pageId);
      assert.equal(res.status, 200, `${JSON.stringify(pageId)} ${JSON.stringify(res.body)}`);
    }
    assert.equal((await pageIds(site)).length, valid.length);
  });

  it('a page stored before the rules keeps working: read, listed, synced again by a member', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/old', [TEXT]);
    // What part one accepted: a page id with a query string, stored directly as an old server would have.
    const legacy = '/old?tab=2';
    await ctx.db
      .updateTable('componentDefinitions')
      .set({ pageId: legacy })
      .where('projectId', '=', site.project.id)
      .execute();
    await ctx.db
      .updateTable('contentEntries')
      .set({ pageId: legacy })
      .where('projectId', '=', site.project.id)
      .execute();
    await ctx.db
      .updateTable('contentPages')
      .set({ pageId: legacy, sortKey: Buffer.from(legacy, 'utf16le').swap16(), search: legacy })
      .where('projectId', '=', site.project.id)
      .execute();
    const entries = await editorEntries(ctx.app, site, legacy);
    assert.equal(entries.length, 1);
    assert.deepEqual(await pageIds(site), [legacy]);
    const del = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/pages/${encodeURIComponent(legacy)}`,
      headers: { ...site.key, ...bearer(site.admin.token) },
    });
    assert.equal(del.status, 200);
    assert.deepEqual(await pageIds(site), []);
  });
});
