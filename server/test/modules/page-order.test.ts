import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, type Site, sync, visitorEntries } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

const text = (instanceKey: string, fields = [{ key: 'title', type: 'text' }]) => ({
  componentId: 'Section',
  instanceKey,
  fields,
});
const keys = (entries: { instanceKey: string }[]) => entries.map((e) => e.instanceKey);
const RENDERED = ['hero', 'features', 'feature-1', 'feature-2', 'pricing'];

describeEachDb('page order: entries in the order the site renders them (issue 37)', (ctx) => {
  const definitionKeys = async (site: Site, pageId: string) => {
    const res = await call(ctx.app, {
      method: 'GET',
      url: `/v1/definitions/${encodeURIComponent(pageId)}`,
      headers: bearer(site.editor.token),
    });
    assert.equal(res.status, 200);
    return keys(res.body.data);
  };
  const publishAll = async (site: Site, pageId: string) => {
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/content/bulk-publish',
      headers: site.editing,
      payload: { pageId },
    });
    assert.equal(res.status, 200);
  };

  it('editor reads, visitor reads and definitions come in the order of the sync, not alphabetically', async () => {
    const site = await newSite(ctx.app);
    await sync(
      ctx.app,
      site,
      '/',
      RENDERED.map((k) => text(k)),
    );
    await publishAll(site, '/');
    assert.deepEqual(keys(await editorEntries(ctx.app, site, '/')), RENDERED);
    assert.deepEqual(keys(await visitorEntries(ctx.app, site, '/')), RENDERED);
    assert.deepEqual(await definitionKeys(site, '/'), RENDERED);
  });

  it('a full sync in a new order reorders the page, cached visitor page included', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [text('a'), text('b'), text('c')]);
    await publishAll(site, '/');
    assert.deepEqual(keys(await visitorEntries(ctx.app, site, '/')), ['a', 'b', 'c']); // now cached
    const unchanged = await sync(ctx.app, site, '/', [text('c'), text('a'), text('b')]);
    assert.deepEqual(unchanged.created, []);
    assert.deepEqual(keys(await visitorEntries(ctx.app, site, '/')), ['c', 'a', 'b']);
    assert.deepEqual(keys(await editorEntries(ctx.app, site, '/')), ['c', 'a', 'b']);
  });

  it('a sync of part of the page moves nothing it does not list; new components go after the one sent before them', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [text('hero'), text('features'), text('pricing')]);
    // The SDK sends only what changed: one component with a new field stays where it is.
    await sync(ctx.app, site, '/', [
      text('features', [
        { key: 'title', type: 'text' },
        { key: 'body', type: 'richtext' },
      ]),
    ]);
    assert.deepEqual(keys(await editorEntries(ctx.app, site, '/')), ['hero', 'features', 'pricing']);
    await sync(ctx.app, site, '/', [text('hero'), text('banner')]);
    assert.deepEqual(keys(await editorEntries(ctx.app, site, '/')), [
      'hero',
      'banner',
      'features',
      'pricing',
    ]);
    await sync(ctx.app, site, '/', [text('footer')]);
    assert.deepEqual(await definitionKeys(site, '/'), ['hero', 'banner', 'features', 'pricing', 'footer']);
  });

  it('an unchanged resend in the same order writes nothing (no activity record)', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/same', [text('b'), text('a')]);
    await sync(ctx.app, site, '/same', [text('b'), text('a')]);
    const res = await call(ctx.app, {
      method: 'GET',
      url: '/v1/activity?action=definitions.synced',
      headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.length, 1);
    assert.deepEqual(keys(await editorEntries(ctx.app, site, '/same')), ['b', 'a']);
  });
});
