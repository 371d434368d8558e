import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import {
  editorEntries,
  heroEntry,
  newSite,
  patchEntry,
  type Site,
  visitorEntries,
} from '../helpers/content.js';
import { bearer, call, newMember } from '../helpers/factories.js';

describeEachDb('content history', (ctx) => {
  it('records every publish and unpublish, newest first, with actor and fields, paginated', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const other = await newMember(ctx.app, site.admin.token, site.project.id, 'editor');
    await patchEntry(ctx.app, site, id, { fields: { title: 'one' }, status: 'published' });
    await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}`,
      headers: { ...site.key, ...bearer(other.token) },
      payload: { fields: { title: 'two' }, status: 'published' },
    });
    await call(ctx.app, { method: 'POST', url: `/v1/content/${id}/unpublish`, headers: site.editing });

    const res = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history`,
      headers: bearer(site.admin.token),
    });
    assert.equal(res.status, 200);
    const items = res.body.data;
    assert.deepEqual(
      items.map((h: { action: string; fields: { title: string }; actor: { email: string } }) => [
        h.action,
        h.fields.title,
        h.actor.email,
      ]),
      [
        ['unpublish', 'two', site.editor.email],
        ['publish', 'two', other.email],
        ['publish', 'one', site.editor.email],
      ],
    );
    assert.equal(items[1].actor.id, other.id);
    assert.equal(items[0].entryId, id);
    assert.equal(res.body.meta, undefined);

    const page1 = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history?limit=2`,
      headers: bearer(site.admin.token),
    });
    assert.equal(page1.body.data.length, 2);
    const page2 = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history?limit=2&cursor=${page1.body.meta.nextCursor}`,
      headers: bearer(site.admin.token),
    });
    assert.deepEqual(
      page2.body.data.map((h: { id: string }) => h.id),
      [items[2].id],
    );
    assert.equal(page2.body.meta, undefined);
  });

  it('needs a session: the publishable key alone is 401', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const res = await call(ctx.app, { method: 'GET', url: `/v1/content/${id}/history`, headers: site.key });
    assert.equal(res.status, 401);
  });

  it('restore makes a past version the working copy, as a draft, without touching visitors', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'old', count: 1 }, status: 'published' });
    await patchEntry(ctx.app, site, id, { fields: { title: 'new', count: null }, status: 'published' });
    const history = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history`,
      headers: bearer(site.editor.token),
    });
    const oldVersion = history.body.data[1];
    assert.equal(oldVersion.fields.title, 'old');

    const res = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/history/${oldVersion.id}/restore`,
      headers: site.editing,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.fields, { title: 'old', count: 1 });
    assert.equal(res.body.data.status, 'draft');
    assert.deepEqual((await visitorEntries(ctx.app, site, '/'))[0]?.fields, { title: 'new' });

    await patchEntry(ctx.app, site, id, { status: 'published' });
    assert.deepEqual((await visitorEntries(ctx.app, site, '/'))[0]?.fields, { title: 'old', count: 1 });
    assert.equal((await editorEntries(ctx.app, site, '/'))[0]?.status, 'published');
  });

  it("restore right after the project's settings changed answers (SQLite: no wait on the connection its own transaction holds)", async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'old' }, status: 'published' });
    await patchEntry(ctx.app, site, id, { fields: { title: 'new' }, status: 'published' });
    const history = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history`,
      headers: bearer(site.editor.token),
    });
    // A change of the project's settings drops its cached site: the restore's transaction is the
    // first to need it again. The cache used to load it through its own handle, which on SQLite
    // waits for the one connection that transaction holds: the restore and every later query hung.
    const renamed = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/projects/${site.project.id}`,
      headers: bearer(site.admin.token),
      payload: { name: 'Renamed' },
    });
    assert.equal(renamed.status, 200);
    const hung = new Promise<'hung'>((resolve) => setTimeout(resolve, 5000, 'hung').unref());
    const res = await Promise.race([
      call(ctx.app, {
        method: 'POST',
        url: `/v1/content/${id}/history/${history.body.data[1].id}/restore`,
        headers: site.editing,
      }),
      hung,
    ]);
    assert.notEqual(res, 'hung', 'the restore never answered');
    assert.equal((res as { status: number }).status, 200);
    assert.equal((res as { body: { data: { fields: { title: string } } } }).body.data.fields.title, 'old');
  });

  it('restore of an unknown or foreign history id is 404', async () => {
    const site = await newSite(ctx.app);
    const other = await newSite(ctx.app, 'Other');
    const id = await heroEntry(ctx.app, site);
    const otherId = await heroEntry(ctx.app, other);
    await patchEntry(ctx.app, other, otherId, { fields: { title: 'x' }, status: 'published' });
    const otherHistory = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${otherId}/history`,
      headers: bearer(other.editor.token),
    });
    const foreign = otherHistory.body.data[0].id;
    const res = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/history/${foreign}/restore`,
      headers: site.editing,
    });
    assert.equal(res.status, 404);
    const cross = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${otherId}/history/${foreign}/restore`,
      headers: site.editing,
    });
    assert.equal(cross.status, 404);
  });

  const historyOf = async (site: Site, id: string) =>
    (
      await call(ctx.app, {
        method: 'GET',
        url: `/v1/content/${id}/history`,
        headers: bearer(site.editor.token),
      })
    ).body.data as {
      id: string;
      action: string;
      fields: { title?: string };
      actor: { id: string; email: string };
    }[];
  const restore = (
    site: Site,
    id: string,
    historyId: string,
    headers: Record<string, string> = site.editing,
  ) => call(ctx.app, { method: 'POST', url: `/v1/content/${id}/history/${historyId}/restore`, headers });

  it('a restore over an unpublished draft keeps that draft as a "saved" record, and restoring it back brings it back', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'First' }, status: 'published' });
    await patchEntry(ctx.app, site, id, { fields: { title: 'Second' }, status: 'published' });
    await patchEntry(ctx.app, site, id, { fields: { title: 'A third title, draft only' } });
    const restorer = await newMember(ctx.app, site.admin.token, site.project.id, 'editor');
    const [second, first] = await historyOf(site, id);
    assert.equal(first?.fields.title, 'First');

    const res = await restore(site, id, first!.id, { ...site.key, ...bearer(restorer.token) });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.fields.title, 'First');
    const after = await historyOf(site, id);
    assert.equal(after.length, 3);
    const saved = after[0]!;
    assert.equal(saved.action, 'saved');
    assert.deepEqual(saved.fields, { title: 'A third title, draft only' });
    assert.deepEqual(saved.actor, { id: restorer.id, email: restorer.email });
    assert.equal(after[1]?.id, second?.id);

    // Restoring the kept draft is one more restore; the working copy it replaces ("First") is
    // already in the history, so nothing more is recorded.
    const back = await restore(site, id, saved.id);
    assert.equal(back.status, 200);
    assert.deepEqual(back.body.data.fields, { title: 'A third title, draft only' });
    assert.equal(back.body.data.status, 'draft');
    assert.equal((await historyOf(site, id)).length, 3);
  });

  it('a restore over a working copy that a record holds records nothing more', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'One' }, status: 'published' });
    await patchEntry(ctx.app, site, id, { fields: { title: 'Two' }, status: 'published' });
    const [, one] = await historyOf(site, id);
    assert.equal((await restore(site, id, one!.id)).status, 200);
    assert.deepEqual(
      (await historyOf(site, id)).map((h) => h.action),
      ['publish', 'publish'],
    );
  });

  it('a refused restore (stale If-Match) records nothing', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'One' }, status: 'published' });
    await patchEntry(ctx.app, site, id, { fields: { title: 'Draft' } });
    const [one] = await historyOf(site, id);
    const res = await restore(site, id, one!.id, { ...site.editing, 'if-match': '"1"' });
    assert.equal(res.status, 412);
    assert.equal((await historyOf(site, id)).length, 1);
  });
});
