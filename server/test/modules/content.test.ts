import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import {
  editorEntries,
  heroEntry,
  newSite,
  pageUrl,
  patchEntry,
  sync,
  visitorEntries,
} from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

describeEachDb('content entries', (ctx) => {
  it('a draft never reaches a visitor; an editor session sees it with its working fields', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const saved = await patchEntry(ctx.app, site, id, { fields: { title: 'Draft title' } });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.data.status, 'draft');
    assert.deepEqual(await visitorEntries(ctx.app, site, '/'), []);
    const [entry] = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(entry?.fields, { title: 'Draft title' });
    assert.equal(entry?.status, 'draft');
  });

  it('publishing shows the published copy; later edits stay hidden until republished', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const published = await patchEntry(ctx.app, site, id, { fields: { title: 'v1' }, status: 'published' });
    assert.equal(published.body.data.status, 'published');
    assert.ok(published.body.data.publishedAt);
    const [live] = await visitorEntries(ctx.app, site, '/');
    assert.deepEqual(live?.fields, { title: 'v1' });
    assert.equal(live?.status, 'published');

    await patchEntry(ctx.app, site, id, { fields: { title: 'v2' }, status: 'draft' });
    assert.deepEqual((await visitorEntries(ctx.app, site, '/'))[0]?.fields, { title: 'v1' });
    const [edited] = await editorEntries(ctx.app, site, '/');
    assert.equal(edited?.status, 'draft');
    assert.deepEqual(edited?.fields, { title: 'v2' });

    await patchEntry(ctx.app, site, id, { status: 'published' });
    assert.deepEqual((await visitorEntries(ctx.app, site, '/'))[0]?.fields, { title: 'v2' });
  });

  it('merges fields into the working copy; null removes a key; undeclared keys are kept', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'T', count: 3, extra: { a: [1, 2] } } });
    const res = await patchEntry(ctx.app, site, id, { fields: { count: 4, title: null } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.fields, { count: 4, extra: { a: [1, 2] } });
  });

  it('rejects values of the wrong type for declared fields, listing each', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const res = await patchEntry(ctx.app, site, id, {
      fields: { title: 5, count: 'many', link: 'javascript:alert(1)' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'validation_failed');
    const paths = res.body.error.details.map((d: { path: string }) => d.path).sort();
    assert.deepEqual(paths, ['body.fields.count', 'body.fields.link', 'body.fields.title']);
    const ok = await patchEntry(ctx.app, site, id, { fields: { link: '/about', count: 2.5 } });
    assert.equal(ok.status, 200);
  });

  it('enforces the value size and key length limits with a 400', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const big = await patchEntry(ctx.app, site, id, { fields: { body: 'x'.repeat(100 * 1024 + 1) } });
    assert.equal(big.status, 400);
    assert.equal(big.body.error.details[0].path, 'body.fields.body');
    const longKey = await patchEntry(ctx.app, site, id, { fields: { ['k'.repeat(129)]: 1 } });
    assert.equal(longKey.status, 400);
    const empty = await patchEntry(ctx.app, site, id, {});
    assert.equal(empty.status, 400);
  });

  it('PATCH status "draft" never takes a live entry down', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'live' }, status: 'published' });
    const res = await patchEntry(ctx.app, site, id, { status: 'draft' });
    assert.equal(res.status, 200);
    assert.deepEqual((await visitorEntries(ctx.app, site, '/'))[0]?.fields, { title: 'live' });
  });

  it('bulk publish publishes every draft of its page only, in one event', async () => {
    const site = await newSite(ctx.app);
    const second = { componentId: 'Text', instanceKey: 'body', fields: [{ key: 'title', type: 'text' }] };
    await sync(ctx.app, site, '/', [{ componentId: 'Hero', instanceKey: 'hero', fields: [] }, second]);
    await sync(ctx.app, site, '/other', [second]);
    const home = await editorEntries(ctx.app, site, '/');
    const [other] = await editorEntries(ctx.app, site, '/other');
    for (const e of [...home, other!])
      await patchEntry(ctx.app, site, e.id, { fields: { title: e.instanceKey } });

    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/content/bulk-publish',
      headers: site.editing,
      payload: { pageId: '/' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.pageId, '/');
    assert.deepEqual([...res.body.data.published].sort(), home.map((e) => e.id).sort());
    assert.equal((await visitorEntries(ctx.app, site, '/')).length, 2);
    assert.deepEqual(await visitorEntries(ctx.app, site, '/other'), []);

    const events = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('projectId', '=', site.project.id)
      .execute();
    assert.equal(events.length, 1);
    assert.equal(events[0]?.type, 'content.published');
    const data = JSON.parse(events[0]!.data);
    assert.equal(data.projectId, site.project.id);
    assert.equal(data.pageId, '/');
    assert.deepEqual(
      data.entries.map((e: { instanceKey: string; fields: unknown }) => [e.instanceKey, e.fields]),
      [
        ['body', { title: 'body' }],
        ['hero', { title: 'hero' }],
      ],
    );
    assert.equal(data.actor.email, site.editor.email);

    const again = await call(ctx.app, {
      method: 'POST',
      url: '/v1/content/bulk-publish',
      headers: site.editing,
      payload: { pageId: '/' },
    });
    assert.deepEqual(again.body.data.published, []);
  });

  it('publish and unpublish write outbox events in their transaction', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'x' }, status: 'published' });
    const down = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/unpublish`,
      headers: site.editing,
    });
    assert.equal(down.status, 200);
    assert.equal(down.body.data.status, 'draft');
    assert.equal(down.body.data.publishedAt, null);
    assert.deepEqual(down.body.data.fields, { title: 'x' });
    assert.deepEqual(await visitorEntries(ctx.app, site, '/'), []);
    const events = await ctx.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('projectId', '=', site.project.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => e.type),
      ['content.published', 'content.unpublished'],
    );
    const unpublished = JSON.parse(events[1]!.data);
    assert.equal(unpublished.entries[0].id, id);
    assert.equal(unpublished.entries[0].fields, null);
    // Unpublishing again, or publishing an unchanged entry, writes nothing.
    await call(ctx.app, { method: 'POST', url: `/v1/content/${id}/unpublish`, headers: site.editing });
    const count = await ctx.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('projectId', '=', site.project.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 2);
  });

  it('pages are addressed by their URL-encoded path', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site, '/blog/hello world');
    await patchEntry(ctx.app, site, id, { fields: { title: 'post' }, status: 'published' });
    const [entry] = await visitorEntries(ctx.app, site, '/blog/hello world');
    assert.equal(entry?.fields.title, 'post');
    assert.deepEqual(await visitorEntries(ctx.app, site, '/blog'), []);
  });

  it('visitor reads carry an ETag and answer If-None-Match with 304', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'cached' }, status: 'published' });
    const first = await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.key });
    const etag = first.headers.etag as string;
    assert.ok(etag);
    const again = await call(ctx.app, {
      method: 'GET',
      url: pageUrl('/'),
      headers: { ...site.key, 'if-none-match': etag },
    });
    assert.equal(again.status, 304);
    await patchEntry(ctx.app, site, id, { fields: { title: 'changed' }, status: 'published' });
    const changed = await call(ctx.app, {
      method: 'GET',
      url: pageUrl('/'),
      headers: { ...site.key, 'if-none-match': etag },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.data[0].fields.title, 'changed');
  });

  it('answers 401 without the key or with a wrong one, and 404 for another project entry', async () => {
    const site = await newSite(ctx.app);
    const other = await newSite(ctx.app, 'Other');
    const id = await heroEntry(ctx.app, site);
    assert.equal((await call(ctx.app, { method: 'GET', url: pageUrl('/') })).status, 401);
    const wrong = await call(ctx.app, {
      method: 'GET',
      url: pageUrl('/'),
      headers: { 'x-cms-key': 'cms_pk_nope' },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'unauthorized');
    const noKey = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}`,
      headers: bearer(site.editor.token),
      payload: { fields: { title: 'x' } },
    });
    assert.equal(noKey.status, 401);
    // The other project's editor, with the other project's key: the entry does not exist there.
    for (const [method, url] of [
      ['PATCH', `/v1/content/${id}`],
      ['POST', `/v1/content/${id}/unpublish`],
      ['GET', `/v1/content/${id}/history`],
    ] as const) {
      const res = await call(ctx.app, {
        method,
        url,
        headers: other.editing,
        ...(method === 'PATCH' && { payload: { fields: { title: 'x' } } }),
      });
      assert.equal(res.status, 404, `${method} ${url}`);
    }
    // A session of one project with the key of another is not a member there.
    const mixed = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}`,
      headers: { ...other.key, ...bearer(site.editor.token) },
      payload: { fields: { title: 'x' } },
    });
    assert.equal(mixed.status, 403);
  });
});
