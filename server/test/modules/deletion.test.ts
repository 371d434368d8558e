import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import {
  editorEntries,
  HERO,
  heroEntry,
  newSite,
  pageUrl,
  patchEntry,
  type Site,
  sync,
  visitorEntries,
} from '../helpers/content.js';
import { bearer, call, newProject } from '../helpers/factories.js';
import {
  createWebhook,
  describeWithWorker,
  type Receiver,
  startReceiver,
  waitFor,
} from '../helpers/hooks.js';

const TEXT = { componentId: 'Text', instanceKey: 'text', fields: [{ key: 'body', type: 'text' }] };

const env = {
  CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
  CMS_WORKER_POLL_MS: '20',
  CMS_DEPLOY_DEBOUNCE_MS: '100',
  CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50',
  CMS_WEBHOOK_TIMEOUT_MS: '1000',
};

// Contract part two, §6: deleting entries, pages and objects.
describeEachDb(
  'deletion',
  (ctx) => {
    const adminWithKey = (site: Site) => ({ ...site.key, ...bearer(site.admin.token) });
    const del = (url: string, headers: Record<string, string>) =>
      call(ctx.app, { method: 'DELETE', url, headers });
    const snapshot = (site: Site) => call(ctx.app, { method: 'GET', url: '/v1/snapshot', headers: site.key });
    const eventsOf = async (projectId: string) =>
      (
        await ctx.db
          .selectFrom('events')
          .select(['type', 'data'])
          .where('projectId', '=', projectId)
          .execute()
      ).map((e) => ({ type: e.type, data: JSON.parse(e.data) }));

    it('deleting an entry removes it, its definition and its history: its id is then 404 everywhere', async () => {
      const site = await newSite(ctx.app);
      await sync(ctx.app, site, '/', [HERO, TEXT]);
      const [hero] = await editorEntries(ctx.app, site, '/');
      await patchEntry(ctx.app, site, hero!.id, { fields: { title: 'x' }, status: 'published' });
      await call(ctx.app, {
        method: 'POST',
        url: `/v1/content/${hero!.id}/unpublish`,
        headers: site.editing,
      });
      const eventsBefore = (await eventsOf(site.project.id)).length;

      const res = await del(`/v1/content/${hero!.id}`, adminWithKey(site));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { data: { id: hero!.id, deleted: true }, error: null });
      assert.equal((await eventsOf(site.project.id)).length, eventsBefore, 'not live: no event');

      const patched = await patchEntry(ctx.app, site, hero!.id, { fields: { title: 'y' } });
      assert.equal(patched.status, 404);
      assert.equal(patched.body.error.code, 'not_found');
      const history = await call(ctx.app, {
        method: 'GET',
        url: `/v1/content/${hero!.id}/history`,
        headers: site.editing,
      });
      assert.equal(history.status, 404);
      const restore = await call(ctx.app, {
        method: 'POST',
        url: `/v1/content/${hero!.id}/history/his_x/restore`,
        headers: site.editing,
      });
      assert.equal(restore.status, 404);
      assert.equal((await del(`/v1/content/${hero!.id}`, adminWithKey(site))).status, 404);
      const remaining = await ctx.db
        .selectFrom('entryHistory')
        .select('id')
        .where('entryId', '=', hero!.id)
        .execute();
      assert.deepEqual(remaining, []);

      const definitions = await call(ctx.app, {
        method: 'GET',
        url: pageUrl('/').replace('content', 'definitions'),
        headers: site.editing,
      });
      assert.deepEqual(
        definitions.body.data.map((d: { instanceKey: string }) => d.instanceKey),
        ['text'],
      );
      // A later sync of the same instance creates a new stub with a new id.
      await sync(ctx.app, site, '/', [HERO, TEXT]);
      const again = (await editorEntries(ctx.app, site, '/')).find((e) => e.instanceKey === 'hero');
      assert.ok(again && again.id !== hero!.id);
      assert.equal(again.version, 1);
      assert.deepEqual(again.fields, {});
    });

    it('deleting a live entry takes it off the cached visitor page and snapshot at once, with one content.unpublished event', async () => {
      const site = await newSite(ctx.app);
      const id = await heroEntry(ctx.app, site);
      await patchEntry(ctx.app, site, id, { fields: { title: 'live' }, status: 'published' });
      assert.equal((await visitorEntries(ctx.app, site, '/')).length, 1); // now cached
      assert.equal((await snapshot(site)).body.data.content['/'].length, 1);

      assert.equal((await del(`/v1/content/${id}`, adminWithKey(site))).status, 200);
      assert.deepEqual(await visitorEntries(ctx.app, site, '/'), []);
      assert.equal((await snapshot(site)).body.data.content['/'], undefined);
      const events = (await eventsOf(site.project.id)).filter((e) => e.type === 'content.unpublished');
      assert.equal(events.length, 1);
      assert.deepEqual(events[0]?.data.entries, [
        { id, instanceKey: 'hero', componentId: 'Hero', fields: null, publishedAt: null },
      ]);
      assert.equal(events[0]?.data.deleted, true);
      assert.equal(events[0]?.data.actor.email, site.admin.email);
    });

    it('entry and page deletion need an admin session plus the key of the same project', async () => {
      const site = await newSite(ctx.app);
      const id = await heroEntry(ctx.app, site);
      const asEditor = await del(`/v1/content/${id}`, site.editing);
      assert.equal(asEditor.status, 403);
      assert.equal((await del(pageUrl('/').replace('content', 'pages'), site.editing)).status, 403);
      assert.equal((await del(`/v1/content/${id}`, bearer(site.admin.token))).status, 401);
      assert.equal((await del(`/v1/content/${id}`, site.key)).status, 401);
      // Another project's admin with its own key: the entry is not in that project.
      const other = await newSite(ctx.app);
      assert.equal((await del(`/v1/content/${id}`, adminWithKey(other))).status, 404);
      assert.equal(
        (await del(`/v1/content/${id}`, { ...other.key, ...bearer(site.admin.token) })).status,
        403,
      );
      assert.equal((await editorEntries(ctx.app, site, '/')).length, 1, 'nothing was deleted');
    });

    it('bad ids are 400 validation_failed', async () => {
      const site = await newSite(ctx.app);
      const long = await del(`/v1/content/ent_${'x'.repeat(80)}`, adminWithKey(site));
      assert.equal(long.status, 400);
      assert.equal(long.body.error.code, 'validation_failed');
      const control = await del('/v1/pages/%2Fa%01b', adminWithKey(site));
      assert.equal(control.status, 400);
      assert.equal(control.body.error.code, 'validation_failed');
    });

    it('odd deletion requests answer a 4xx in the envelope and delete nothing', async () => {
      const site = await newSite(ctx.app);
      const id = await heroEntry(ctx.app, site);
      const admin = adminWithKey(site);
      const cases: [string, string, Record<string, string>, string?][] = [
        ['DELETE', '/v1/pages/', admin],
        ['DELETE', '/v1/content/', admin],
        ['DELETE', '/v1/objects/product/', admin],
        ['DELETE', '/v1/objects/product', admin],
        ['DELETE', `/v1/content/${id}`, { ...admin, 'content-type': 'application/json' }, '{"x":'],
        ['DELETE', '/v1/pages/%E0%A4%A', admin],
      ];
      for (const [method, url, headers, payload] of cases) {
        const res = await call(ctx.app, { method: method as 'DELETE', url, headers, payload });
        assert.ok(res.status >= 400 && res.status < 500, `${url}: ${res.status}`);
        assert.equal(res.body.data, null, url);
        assert.equal(typeof res.body.error.code, 'string', url);
      }
      // Nothing was deleted by them; an unpublish or an If-Match PATCH of a deleted entry is 404.
      assert.equal((await del(`/v1/content/${id}`, admin)).status, 200);
      const unpublish = await call(ctx.app, {
        method: 'POST',
        url: `/v1/content/${id}/unpublish`,
        headers: site.editing,
      });
      assert.equal(unpublish.status, 404);
      const ifMatch = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/content/${id}`,
        headers: { ...site.editing, 'if-match': '"1"' },
        payload: { fields: { title: 'x' } },
      });
      assert.equal(ifMatch.status, 404);
    });

    it('deleting a page removes every entry and definition, answers the ids, and an unknown page is 404', async () => {
      const site = await newSite(ctx.app);
      const pageId = '/blog/post 1';
      await sync(ctx.app, site, pageId, [TEXT, HERO]);
      await sync(ctx.app, site, '/keep', [HERO]);
      const entries = await editorEntries(ctx.app, site, pageId);
      const hero = entries.find((e) => e.instanceKey === 'hero');
      const text = entries.find((e) => e.instanceKey === 'text');
      await patchEntry(ctx.app, site, hero!.id, { fields: { title: 'live' }, status: 'published' });
      assert.equal((await visitorEntries(ctx.app, site, pageId)).length, 1);
      const url = `/v1/pages/${encodeURIComponent(pageId)}`;

      const res = await del(url, adminWithKey(site));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.data, { pageId, deleted: [hero!.id, text!.id] });
      assert.deepEqual(await visitorEntries(ctx.app, site, pageId), []);
      assert.deepEqual(await editorEntries(ctx.app, site, pageId), []);
      const pages = await call(ctx.app, {
        method: 'GET',
        url: '/v1/pages',
        headers: bearer(site.editor.token),
      });
      assert.deepEqual(
        pages.body.data.map((p: { pageId: string }) => p.pageId),
        ['/keep'],
      );
      const events = (await eventsOf(site.project.id)).filter((e) => e.type === 'content.unpublished');
      assert.equal(events.length, 1);
      assert.deepEqual(
        events[0]?.data.entries.map((e: { id: string }) => e.id),
        [hero!.id],
        'only the published entry is announced',
      );

      const again = await del(url, adminWithKey(site));
      assert.equal(again.status, 404);
      assert.equal(again.body.error.code, 'not_found');
    });

    it('deleting a draft page writes no event', async () => {
      const site = await newSite(ctx.app);
      await sync(ctx.app, site, '/drafts', [HERO]);
      const res = await del('/v1/pages/%2Fdrafts', adminWithKey(site));
      assert.equal(res.status, 200);
      assert.equal(res.body.data.deleted.length, 1);
      assert.deepEqual(await eventsOf(site.project.id), []);
    });

    // One project for the object tests, made by a hook; each test asserts only on its own objects
    // and events, so none depends on another having run.
    describe('objects', () => {
      let site: Awaited<ReturnType<typeof newProject>>;
      let readKey: string;
      let writeKey: string;
      const asAdmin = () => ({ ...bearer(site.admin.token), 'x-cms-project-id': site.project.id });
      const save = (payload: object) =>
        call(ctx.app, { method: 'POST', url: '/v1/objects/save', headers: asAdmin(), payload });
      const published = async () =>
        (
          await call(ctx.app, {
            method: 'GET',
            url: '/v1/objects',
            headers: { 'x-cms-key': site.project.apiKey },
          })
        ).body.data as { type: string; id: string }[];
      const drafts = async () =>
        (await call(ctx.app, { method: 'GET', url: '/v1/objects?draft=true', headers: asAdmin() })).body
          .data as {
          type: string;
          id: string;
        }[];
      const keyFor = async (access: 'read' | 'write') =>
        (
          await call(ctx.app, {
            method: 'POST',
            url: '/v1/api-keys',
            headers: bearer(site.admin.token),
            payload: { name: access, scope: 'selected', projectIds: [site.project.id], access },
          })
        ).body.data.key as string;

      before(async () => {
        site = await newProject(ctx.app, 'Objects deletion');
        readKey = await keyFor('read');
        writeKey = await keyFor('write');
      });

      it('deleting a draft object removes it from the overlay without an event; a second delete is 404', async () => {
        const eventsBefore = (await eventsOf(site.project.id)).length;
        await save({
          objects: [
            {
              type: 'product',
              id: 'draft-1',
              fields: { title: 'x' },
              collections: { tags: [{ itemId: 'a', value: { v: 1 } }] },
            },
          ],
        });
        const res = await call(ctx.app, {
          method: 'DELETE',
          url: '/v1/objects/product/draft-1',
          headers: asAdmin(),
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body.data, { type: 'product', id: 'draft-1', deleted: true });
        assert.equal(
          (await drafts()).find((o) => o.id === 'draft-1'),
          undefined,
        );
        assert.equal((await eventsOf(site.project.id)).length, eventsBefore, 'a draft: no event');
        const again = await call(ctx.app, {
          method: 'DELETE',
          url: '/v1/objects/product/draft-1',
          headers: asAdmin(),
        });
        assert.equal(again.status, 404);
        assert.equal(again.body.error.code, 'not_found');
        const fields = await ctx.db
          .selectFrom('objectItems')
          .select('itemId')
          .where('objectId', '=', 'draft-1')
          .execute();
        assert.deepEqual(fields, []);
      });

      it('deleting a published object takes it out of the cached published view and the snapshot, with an objects.deleted event', async () => {
        await save({
          status: 'published',
          objects: [
            { type: 'product', id: 'sku 1/2', fields: { title: 'Shirt' } },
            { type: 'product', id: 'keep', fields: { title: 'Hat' } },
          ],
        });
        assert.equal((await published()).length, 2); // cached now
        const snap = (
          await call(ctx.app, {
            method: 'GET',
            url: '/v1/snapshot',
            headers: { 'x-cms-key': site.project.apiKey },
          })
        ).body.data;
        assert.equal(snap.objectFields.length, 2);

        const res = await call(ctx.app, {
          method: 'DELETE',
          url: `/v1/objects/product/${encodeURIComponent('sku 1/2')}`,
          headers: bearer(writeKey),
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(
          (await published()).map((o) => o.id),
          ['keep'],
        );
        const after = (
          await call(ctx.app, {
            method: 'GET',
            url: '/v1/snapshot',
            headers: { 'x-cms-key': site.project.apiKey },
          })
        ).body.data;
        assert.deepEqual(
          after.objectFields.map((f: { id: string }) => f.id),
          ['keep'],
        );
        assert.notEqual(after.version, snap.version);
        const events = (await eventsOf(site.project.id)).filter((e) => e.type === 'objects.deleted');
        assert.deepEqual(
          events.map((e) => e.data),
          [{ projectId: site.project.id, objects: [{ type: 'product', id: 'sku 1/2' }] }],
        );
      });

      it('object deletion: a read key is 403, the publishable key 401, another project 404, a bad type 400', async () => {
        await save({ objects: [{ type: 'product', id: 'guarded', fields: { title: 'x' } }] });
        const url = '/v1/objects/product/guarded';
        assert.equal((await call(ctx.app, { method: 'DELETE', url, headers: bearer(readKey) })).status, 403);
        assert.equal(
          (await call(ctx.app, { method: 'DELETE', url, headers: { 'x-cms-key': site.project.apiKey } }))
            .status,
          401,
        );
        const other = await newProject(ctx.app);
        assert.equal(
          (await call(ctx.app, { method: 'DELETE', url, headers: bearer(other.admin.token) })).status,
          404,
        );
        const bad = await call(ctx.app, {
          method: 'DELETE',
          url: '/v1/objects/bad%20type!/x',
          headers: asAdmin(),
        });
        assert.equal(bad.status, 400);
        assert.equal(bad.body.error.code, 'validation_failed');
        assert.ok(
          (await drafts()).find((o) => o.id === 'guarded'),
          'still there',
        );
      });
    });

    describeWithWorker(ctx, 'with the worker', () => {
      let receiver: Receiver;
      before(async () => {
        receiver = await startReceiver();
      });
      after(async () => receiver.close());
      const bodiesAt = (path: string) =>
        receiver.received
          .filter((r) => r.url === path)
          .map((r) => JSON.parse(r.body) as { type: string; data: any; reasons?: string[] });

      it('deleting live content and a published object reaches webhooks and fires deploy hooks', async () => {
        const site = await newSite(ctx.app);
        const hooked = await call(ctx.app, {
          method: 'PATCH',
          url: `/v1/projects/${site.project.id}`,
          headers: bearer(site.admin.token),
          payload: {
            deployHooks: [{ id: 'build', type: 'generic', url: `${receiver.url}/deploy-${site.project.id}` }],
          },
        });
        assert.equal(hooked.status, 200, JSON.stringify(hooked.body));
        await createWebhook(ctx.app, site.admin.token, `${receiver.url}/hook-${site.project.id}`, [
          'content.unpublished',
          'objects.deleted',
        ]);
        const deployPath = `/deploy-${site.project.id}`;
        const hookPath = `/hook-${site.project.id}`;

        const id = await heroEntry(ctx.app, site);
        await patchEntry(ctx.app, site, id, { fields: { title: 'live' }, status: 'published' });
        await waitFor(() => bodiesAt(deployPath).length === 1, 15_000, 'deploy for the publish');

        assert.equal((await del(`/v1/content/${id}`, adminWithKey(site))).status, 200);
        await waitFor(() => bodiesAt(hookPath).length > 0, 15_000, 'content.unpublished delivery');
        const [unpublished] = bodiesAt(hookPath);
        assert.equal(unpublished?.type, 'content.unpublished');
        assert.equal(unpublished?.data.entries[0].id, id);
        assert.equal(unpublished?.data.deleted, true);
        await waitFor(() => bodiesAt(deployPath).length === 2, 15_000, 'deploy for the deletion');
        const [, deploy] = bodiesAt(deployPath);
        assert.deepEqual(deploy?.reasons, ['content.unpublished']);

        await call(ctx.app, {
          method: 'POST',
          url: '/v1/objects/save',
          headers: bearer(site.admin.token),
          payload: { status: 'published', objects: [{ type: 'product', id: 'p1', fields: { title: 'x' } }] },
        });
        await waitFor(() => bodiesAt(deployPath).length === 3, 15_000, 'deploy for the object save');
        const gone = await call(ctx.app, {
          method: 'DELETE',
          url: '/v1/objects/product/p1',
          headers: bearer(site.admin.token),
        });
        assert.equal(gone.status, 200);
        const isDeleted = (b: { type: string }) => b.type === 'objects.deleted';
        await waitFor(() => bodiesAt(hookPath).some(isDeleted), 15_000, 'objects.deleted delivery');
        assert.deepEqual(bodiesAt(hookPath).find(isDeleted)?.data, {
          projectId: site.project.id,
          objects: [{ type: 'product', id: 'p1' }],
        });
        await waitFor(() => bodiesAt(deployPath).length === 4, 15_000, 'deploy for the object deletion');
        assert.deepEqual(bodiesAt(deployPath)[3]?.reasons, ['objects.deleted']);
      });
    });
  },
  { env },
);
