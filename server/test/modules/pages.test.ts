import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, HERO, newSite, patchEntry, type Site, sync } from '../helpers/content.js';
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
      { pageId: '/a', components: 2, published: 2, drafts: 1, updatedAt: undefined },
    );
    assert.equal(a.updatedAt, last.body.data.updatedAt);
    assert.deepEqual(
      { ...pages[0], updatedAt: undefined },
      { pageId: '/B', components: 1, published: 0, drafts: 1, updatedAt: undefined },
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
});
