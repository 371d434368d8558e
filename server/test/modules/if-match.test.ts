import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import {
  editorEntries,
  HERO,
  heroEntry,
  newSite,
  pageUrl,
  patchEntry,
  type Site,
  visitorEntries,
} from '../helpers/content.js';
import { call } from '../helpers/factories.js';

// Contract part two, §7: every entry carries `version`; If-Match turns a lost update into a 412.
describeEachDb('entry versions and If-Match', (ctx) => {
  const versionOf = async (site: Site, pageId: string, id: string) =>
    (await editorEntries(ctx.app, site, pageId)).find((e) => e.id === id)?.version;
  const patch = (site: Site, id: string, payload: unknown, ifMatch?: string) =>
    call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}`,
      headers: { ...site.editing, ...(ifMatch !== undefined && { 'if-match': ifMatch }) },
      payload: payload as object,
    });
  const post = (site: Site, url: string, ifMatch?: string) =>
    call(ctx.app, {
      method: 'POST',
      url,
      headers: { ...site.editing, ...(ifMatch !== undefined && { 'if-match': ifMatch }) },
    });

  it('a stub starts at 1; each change adds one, a PATCH that changes nothing keeps it', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    assert.equal(await versionOf(site, '/', id), 1);

    const edited = await patchEntry(ctx.app, site, id, { fields: { title: 'a' } });
    assert.equal(edited.body.data.version, 2);
    const same = await patchEntry(ctx.app, site, id, { fields: { title: 'a' } });
    assert.equal(same.body.data.version, 2);
    const published = await patchEntry(ctx.app, site, id, { status: 'published' });
    assert.equal(published.body.data.version, 3);
    const again = await patchEntry(ctx.app, site, id, { status: 'published' });
    assert.equal(again.body.data.version, 3, 'publishing what is already live changes nothing');

    const down = await post(site, `/v1/content/${id}/unpublish`);
    assert.equal(down.body.data.version, 4);
    const downAgain = await post(site, `/v1/content/${id}/unpublish`);
    assert.equal(downAgain.body.data.version, 4);

    await patchEntry(ctx.app, site, id, { fields: { title: 'b' } });
    const history = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history`,
      headers: site.editing,
    });
    const firstPublish = history.body.data.at(-1).id;
    const restored = await post(site, `/v1/content/${id}/history/${firstPublish}/restore`);
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.data.version, 6);
    assert.deepEqual(restored.body.data.fields, { title: 'a' });
  });

  it('bulk publish and a component change by sync add one; bulk publish still answers ids', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site, '/bulk');
    await patchEntry(ctx.app, site, id, { fields: { title: 'x' } });
    const bulk = await call(ctx.app, {
      method: 'POST',
      url: '/v1/content/bulk-publish',
      headers: site.editing,
      payload: { pageId: '/bulk' },
    });
    assert.deepEqual(bulk.body.data, { pageId: '/bulk', published: [id] });
    assert.equal(await versionOf(site, '/bulk', id), 3);

    // A member's sync may change a component (the publishable key's additive mode may not).
    const changeComponent = () =>
      call(ctx.app, {
        method: 'POST',
        url: '/v1/definitions/sync',
        headers: site.editing,
        payload: { pageId: '/bulk', components: [{ ...HERO, componentId: 'Banner' }] },
      });
    assert.equal((await changeComponent()).status, 200);
    assert.equal(await versionOf(site, '/bulk', id), 4);
    await changeComponent();
    assert.equal(await versionOf(site, '/bulk', id), 4, 'an unchanged sync keeps it');
    // The visitor sees the new component, so the version of what is live moves with it.
    const [live] = await visitorEntries(ctx.app, site, '/bulk');
    assert.equal(live?.componentId, 'Banner');
    assert.equal(live?.version, 4);
  });

  it('visitors see the version their published copy was made at; a draft save leaves it and the ETag alone', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site, '/v');
    await patchEntry(ctx.app, site, id, { fields: { title: 'live' }, status: 'published' });
    const first = await call(ctx.app, { method: 'GET', url: pageUrl('/v'), headers: site.key });
    assert.equal(first.body.data[0].version, 2);

    const draft = await patchEntry(ctx.app, site, id, { fields: { title: 'draft' } });
    assert.equal(draft.body.data.version, 3);
    const second = await call(ctx.app, { method: 'GET', url: pageUrl('/v'), headers: site.key });
    assert.equal(second.body.data[0].version, 2);
    assert.equal(second.headers.etag, first.headers.etag);

    await patchEntry(ctx.app, site, id, { status: 'published' });
    const third = await call(ctx.app, { method: 'GET', url: pageUrl('/v'), headers: site.key });
    assert.equal(third.body.data[0].version, 4);
    assert.deepEqual(third.body.data[0].fields, { title: 'draft' });
  });

  it('a stale If-Match is 412 with details.currentVersion, and nothing is written', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'mine' }, status: 'published' }); // version 2

    const stale = await patch(site, id, { fields: { title: 'theirs' }, status: 'published' }, '"1"');
    assert.equal(stale.status, 412);
    assert.equal(stale.body.data, null);
    assert.equal(stale.body.error.code, 'precondition_failed');
    assert.deepEqual(stale.body.error.details, { currentVersion: 2 });
    const [entry] = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(entry?.fields, { title: 'mine' });
    assert.equal(entry?.version, 2);

    // Even a PATCH that would change nothing is refused when the version is stale.
    assert.equal((await patch(site, id, { fields: { title: 'mine' } }, '"1"')).status, 412);
    assert.equal((await post(site, `/v1/content/${id}/unpublish`, '"1"')).status, 412);
    assert.equal((await visitorEntries(ctx.app, site, '/')).length, 1, 'still live');

    const history = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history`,
      headers: site.editing,
    });
    const restore = await post(site, `/v1/content/${id}/history/${history.body.data[0].id}/restore`, '"7"');
    assert.equal(restore.status, 412);
    assert.deepEqual(restore.body.error.details, { currentVersion: 2 });

    const current = await patch(site, id, { fields: { title: 'next' } }, '"2"');
    assert.equal(current.status, 200);
    assert.equal(current.body.data.version, 3);
    const unpublished = await post(site, `/v1/content/${id}/unpublish`, '"3"');
    assert.equal(unpublished.status, 200);
    assert.equal(unpublished.body.data.version, 4);
  });

  it('an If-Match that is not a quoted integer is 400 validation_failed, and nothing is written', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    for (const bad of [
      '1',
      'W/"1"',
      '"abc"',
      '*',
      '"1", "2"',
      '""',
      '"-1"',
      '"1.5"',
      `"${'9'.repeat(16)}"`,
    ]) {
      const res = await patch(site, id, { fields: { title: 'x' } }, bad);
      assert.equal(res.status, 400, `If-Match ${bad}`);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.ok(JSON.stringify(res.body.error.details).includes('if-match'), JSON.stringify(res.body.error));
    }
    assert.equal((await post(site, `/v1/content/${id}/unpublish`, 'W/"1"')).status, 400);
    assert.equal(await versionOf(site, '/', id), 1);
  });

  it('a deleted or unknown entry is 404 before any version check', async () => {
    const site = await newSite(ctx.app);
    const res = await patch(site, 'ent_unknown', { fields: { title: 'x' } }, '"1"');
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'not_found');
  });

  it('of parallel PATCHes carrying the same If-Match exactly one succeeds; the others get 412', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => patch(site, id, { fields: { title: `writer ${i}` } }, '"1"')),
    );
    const won = results.filter((r) => r.status === 200);
    const lost = results.filter((r) => r.status === 412);
    assert.equal(won.length, 1, JSON.stringify(results.map((r) => r.status)));
    assert.equal(lost.length, 5);
    for (const r of lost) assert.deepEqual(r.body.error.details, { currentVersion: 2 });
    const [entry] = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(entry?.fields, won[0]?.body.data.fields);
    assert.equal(entry?.version, 2);
  });
});

describeEachDb('If-Match from the browser', (ctx) => {
  it('a preflight for an entry PATCH or DELETE allows If-Match and the DELETE method', async () => {
    for (const [method, headers] of [
      ['PATCH', 'if-match, content-type, x-cms-key, authorization'],
      ['DELETE', 'x-cms-key, authorization'],
    ]) {
      const pre = await call(ctx.app, {
        method: 'OPTIONS',
        url: '/v1/content/ent_x',
        headers: {
          origin: 'https://site.example.com',
          'access-control-request-method': method as string,
          'access-control-request-headers': headers as string,
        },
      });
      assert.equal(pre.status, 200);
      assert.match(String(pre.headers['access-control-allow-headers']), /if-match/);
      assert.match(String(pre.headers['access-control-allow-methods']), new RegExp(method as string));
    }
  });
});
