import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { pruneActivityLog } from '../../src/outbox/activity.jobs.js';
import { recordActivity } from '../../src/outbox/activity.repository.js';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, HERO, newSite, patchEntry, type Site, sync } from '../helpers/content.js';
import { bearer, call, login, newProject, PASSWORD, uniqueEmail } from '../helpers/factories.js';
import { makeImage, upload } from '../helpers/media.js';

interface Activity {
  id: string;
  at: string;
  actor: Record<string, unknown>;
  action: string;
  target: { type: string; id: string };
  summary: string;
}

const TEXT = { componentId: 'Text', instanceKey: 'text', fields: [{ key: 'body', type: 'text' }] };

describeEachDb(
  'activity log (contract §8)',
  (ctx) => {
    const list = async (site: Site, query = '', token = site.admin.token) => {
      const res = await call(ctx.app, {
        method: 'GET',
        url: `/v1/activity${query}`,
        headers: { ...bearer(token), 'x-cms-project-id': site.project.id },
      });
      return res;
    };
    const all = async (site: Site, query = ''): Promise<Activity[]> => {
      const res = await list(site, query ? `?limit=200&${query}` : '?limit=200');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };
    const admin = (site: Site) => ({ ...bearer(site.admin.token), 'x-cms-project-id': site.project.id });
    const adminWithKey = (site: Site) => ({ ...admin(site), ...site.key });
    const userActor = (member: { id: string; email: string }) => ({
      type: 'user',
      id: member.id,
      email: member.email,
    });

    let site: Site;
    before(async () => {
      site = await newSite(ctx.app, 'Activity site');
    });

    it('records the project, its members and its key with the acting member', async () => {
      const s = await newSite(ctx.app, 'Members site');
      const patched = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${s.project.id}`,
        headers: admin(s),
        payload: { name: 'Renamed', bakeEnabled: false },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const rotated = await call(ctx.app, {
        method: 'POST',
        url: `/v1/projects/${s.project.id}/rotate-key`,
        headers: admin(s),
      });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const editorId = s.editor.id;
      assert.equal(
        (
          await call(ctx.app, {
            method: 'PATCH',
            url: `/v1/users/${editorId}`,
            headers: admin(s),
            payload: { role: 'admin' },
          })
        ).status,
        200,
      );
      assert.equal(
        (await call(ctx.app, { method: 'DELETE', url: `/v1/users/${editorId}`, headers: admin(s) })).status,
        200,
      );

      const records = (await all(s)).reverse();
      assert.deepEqual(
        records.map((r) => r.action),
        [
          'project.created',
          'user.added',
          'project.updated',
          'project.key_rotated',
          'user.updated',
          'user.removed',
        ],
      );
      for (const r of records) assert.deepEqual(r.actor, userActor(s.admin));
      assert.deepEqual(records[0]!.target, { type: 'project', id: s.project.id });
      assert.deepEqual(records[1]!.target, { type: 'user', id: editorId });
      assert.match(records[1]!.summary, new RegExp(`added ${s.editor.email} as editor`));
      assert.match(records[2]!.summary, /name, bakeEnabled/);
      assert.match(records[4]!.summary, /role from editor to admin/);
      for (const r of records) {
        assert.match(r.id, /^act_[0-9A-Z]{26}$/);
        assert.match(r.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.ok(r.summary.endsWith('.'), r.summary);
      }
    });

    it('records every content change with its entry or page, and a sync only when it changed something', async () => {
      const s = await newSite(ctx.app, 'Content activity');
      await sync(ctx.app, s, '/home', [HERO, TEXT]);
      await sync(ctx.app, s, '/home', [HERO, TEXT]); // unchanged: no record
      const [hero, text] = await editorEntries(ctx.app, s, '/home');
      assert.equal((await patchEntry(ctx.app, s, hero!.id, { fields: { title: 'Draft' } })).status, 200);
      assert.equal((await patchEntry(ctx.app, s, hero!.id, { fields: { title: 'Draft' } })).status, 200); // no change
      assert.equal((await patchEntry(ctx.app, s, hero!.id, { status: 'published' })).status, 200);
      const unpublished = await call(ctx.app, {
        method: 'POST',
        url: `/v1/content/${hero!.id}/unpublish`,
        headers: s.editing,
      });
      assert.equal(unpublished.status, 200);
      const history = await call(ctx.app, {
        method: 'GET',
        url: `/v1/content/${hero!.id}/history`,
        headers: s.editing,
      });
      assert.equal((await patchEntry(ctx.app, s, hero!.id, { fields: { title: 'Later' } })).status, 200);
      const restored = await call(ctx.app, {
        method: 'POST',
        url: `/v1/content/${hero!.id}/history/${history.body.data[0].id}/restore`,
        headers: s.editing,
      });
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      await patchEntry(ctx.app, s, text!.id, { fields: { body: 'x' } });
      const bulk = await call(ctx.app, {
        method: 'POST',
        url: '/v1/content/bulk-publish',
        headers: s.editing,
        payload: { pageId: '/home' },
      });
      assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
      const deleted = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/content/${text!.id}`,
        headers: adminWithKey(s),
      });
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      await sync(ctx.app, s, '/other', [HERO]);
      const page = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/pages/${encodeURIComponent('/other')}`,
        headers: adminWithKey(s),
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));

      const records = (await all(s))
        .reverse()
        .filter((r) => !r.action.startsWith('project.') && !r.action.startsWith('user.'));
      assert.deepEqual(
        records.map((r) => [r.action, r.target.type, r.target.id]),
        [
          ['definitions.synced', 'page', '/home'],
          ['entry.updated', 'entry', hero!.id],
          ['entry.published', 'entry', hero!.id],
          ['entry.unpublished', 'entry', hero!.id],
          ['entry.updated', 'entry', hero!.id],
          ['entry.restored', 'entry', hero!.id],
          ['entry.updated', 'entry', text!.id],
          ['page.published', 'page', '/home'],
          ['entry.deleted', 'entry', text!.id],
          ['definitions.synced', 'page', '/other'],
          ['page.deleted', 'page', '/other'],
        ],
      );
      assert.deepEqual(records[0]!.actor, { type: 'site' });
      assert.match(records[0]!.summary, /^The site synced the definitions of \/home: 2 added, 0 changed\.$/);
      assert.deepEqual(records[1]!.actor, userActor(s.editor));
      assert.equal(records[2]!.summary, `${s.editor.email} published hero (Hero) on /home.`);
      assert.match(records[7]!.summary, /published page \/home \(2 entries\)/);
      assert.deepEqual(records[8]!.actor, userActor(s.admin));
    });

    it('a change that fails leaves no record (bad field, stale If-Match)', async () => {
      const s = await newSite(ctx.app, 'Failures');
      await sync(ctx.app, s, '/', [HERO]);
      const [hero] = await editorEntries(ctx.app, s, '/');
      const before = (await all(s)).length;
      const bad = await patchEntry(ctx.app, s, hero!.id, { fields: { count: 'not a number' } });
      assert.equal(bad.status, 400);
      const stale = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/content/${hero!.id}`,
        headers: { ...s.editing, 'if-match': '"99"' },
        payload: { fields: { title: 'x' } },
      });
      assert.equal(stale.status, 412);
      assert.equal((await all(s)).length, before);
    });

    it('a secret key is the actor of object saves and deletes, one record per object', async () => {
      const s = await newSite(ctx.app, 'Objects activity');
      const created = await call(ctx.app, {
        method: 'POST',
        url: '/v1/api-keys',
        headers: bearer(s.admin.token),
        payload: { name: 'importer', scope: 'selected', projectIds: [s.project.id], access: 'write' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const key = created.body.data;
      const saved = await call(ctx.app, {
        method: 'POST',
        url: '/v1/objects/save',
        headers: bearer(key.key),
        payload: {
          status: 'published',
          objects: [
            { type: 'product', id: 'p1', fields: { name: 'One' } },
            { type: 'product', id: 'p2', fields: { name: 'Two' } },
          ],
        },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const removed = await call(ctx.app, {
        method: 'DELETE',
        url: '/v1/objects/product/p1',
        headers: bearer(key.key),
      });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));

      const records = await all(s, 'targetId=product%2Fp1');
      assert.deepEqual(
        records.map((r) => r.action),
        ['objects.deleted', 'objects.saved'],
      );
      for (const r of records) assert.deepEqual(r.actor, { type: 'apiKey', id: key.id, name: 'importer' });
      assert.equal(records[1]!.summary, 'API key "importer" saved product p1 and published it.');
      const byKey = await all(s, `actorId=${key.id}`);
      assert.equal(byKey.length, 3);
      const keyRecord = await all(s, 'action=api_key.created');
      assert.deepEqual(keyRecord[0]!.target, { type: 'apiKey', id: key.id });
    });

    it('an API key change is recorded in every project the key covers at that moment', async () => {
      const email = uniqueEmail('ada');
      const make = async (name: string) => {
        const res = await call(ctx.app, {
          method: 'POST',
          url: '/v1/projects',
          payload: { name, admin: { email, password: PASSWORD } },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.data.project.id as string;
      };
      const p1 = await make('Key site one');
      const p2 = await make('Key site two');
      const token = await login(ctx.app, email);
      const key = await call(ctx.app, {
        method: 'POST',
        url: '/v1/api-keys',
        headers: bearer(token),
        payload: { name: 'everywhere', scope: 'all', access: 'read' },
      });
      assert.equal(key.status, 201);
      const revoked = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/api-keys/${key.body.data.id}`,
        headers: bearer(token),
      });
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      for (const projectId of [p1, p2]) {
        const res = await call(ctx.app, {
          method: 'GET',
          url: `/v1/activity?targetId=${key.body.data.id}`,
          headers: { ...bearer(token), 'x-cms-project-id': projectId },
        });
        assert.equal(res.status, 200);
        assert.deepEqual(
          res.body.data.map((r: Activity) => r.action),
          ['api_key.revoked', 'api_key.created'],
        );
        assert.match(res.body.data[1].summary, /created the read-only API key "everywhere"/);
      }
    });

    it('records webhooks and media, and never a password, token, key or secret', async () => {
      const s = await newSite(ctx.app, 'Secrets');
      const hook = await call(ctx.app, {
        method: 'POST',
        url: '/v1/webhooks',
        headers: admin(s),
        payload: { url: 'http://127.0.0.1:9/hook?token=hush-hush', events: ['content.published'] },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const id = hook.body.data.id;
      const patched = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/webhooks/${id}`,
        headers: admin(s),
        payload: { active: false },
      });
      assert.equal(patched.status, 200);
      const rotated = await call(ctx.app, {
        method: 'POST',
        url: `/v1/webhooks/${id}/rotate-secret`,
        headers: admin(s),
      });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const gone = await call(ctx.app, { method: 'DELETE', url: `/v1/webhooks/${id}`, headers: admin(s) });
      assert.equal(gone.status, 200);
      const image = await upload(ctx.app, s.editor.token, s.project.id, {
        data: await makeImage('png', 4, 3),
        filename: 'cat.png',
      });
      assert.equal(image.status, 201, JSON.stringify(image.body));
      const mediaGone = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/media/${image.body.data.id}`,
        headers: { ...bearer(s.editor.token), 'x-cms-project-id': s.project.id },
      });
      assert.equal(mediaGone.status, 200);
      const apiKey = await call(ctx.app, {
        method: 'POST',
        url: '/v1/api-keys',
        headers: bearer(s.admin.token),
        payload: { name: 'k', scope: 'selected', projectIds: [s.project.id], access: 'write' },
      });
      const rotatedKey = await call(ctx.app, {
        method: 'POST',
        url: `/v1/projects/${s.project.id}/rotate-key`,
        headers: admin(s),
      });

      const records = await all(s);
      assert.deepEqual(
        records
          .map((r) => r.action)
          .filter((a) => a.startsWith('webhook.') || a.startsWith('media.'))
          .reverse(),
        [
          'webhook.created',
          'webhook.updated',
          'webhook.secret_rotated',
          'webhook.deleted',
          'media.uploaded',
          'media.deleted',
        ],
      );
      const text = JSON.stringify(records);
      const secrets = [
        'hush-hush',
        rotated.body.data.secret,
        hook.body.data.secret,
        apiKey.body.data.key,
        s.project.apiKey,
        rotatedKey.body.data.apiKey,
        s.admin.token,
        s.editor.token,
        PASSWORD,
      ];
      for (const secret of secrets) {
        assert.ok(typeof secret === 'string' && secret.length > 4, 'a secret to look for');
        assert.ok(!text.includes(secret), `a record contains a secret: ${secret.slice(0, 8)}…`);
      }
      const upload1 = records.find((r) => r.action === 'media.uploaded')!;
      assert.equal(upload1.summary, `${s.editor.email} uploaded cat.png (4×3).`);
      assert.match(
        records.find((r) => r.action === 'webhook.created')!.summary,
        /the webhook to 127\.0\.0\.1:9/,
      );
    });

    it('is for admins, newest first, paginated and filtered, and never shows another project', async () => {
      const editorRes = await list(site, '', site.editor.token);
      assert.equal(editorRes.status, 403);
      assert.equal(editorRes.body.error.code, 'forbidden');
      assert.equal(
        (await call(ctx.app, { method: 'GET', url: '/v1/activity', headers: site.key })).status,
        401,
      );

      await sync(ctx.app, site, '/paged', [HERO]);
      const [hero] = await editorEntries(ctx.app, site, '/paged');
      for (let i = 0; i < 5; i++) await patchEntry(ctx.app, site, hero!.id, { fields: { title: `v${i}` } });
      const everything = await all(site);
      const ids = everything.map((r) => r.id);
      assert.deepEqual([...ids].sort().reverse(), ids, 'newest first');

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await list(site, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.status, 200);
        assert.ok(res.body.data.length <= 2);
        seen.push(...res.body.data.map((r: Activity) => r.id));
        cursor = res.body.meta?.nextCursor;
      } while (cursor);
      assert.deepEqual(seen, ids);

      const updates = await all(site, `action=entry.updated&targetId=${hero!.id}`);
      assert.equal(updates.length, 5);
      const mine = await all(site, `actorId=${site.editor.id}`);
      assert.ok(mine.length >= 5 && mine.every((r) => r.actor.id === site.editor.id));

      const other = await newProject(ctx.app, 'Other');
      const foreign = await call(ctx.app, {
        method: 'GET',
        url: `/v1/activity?targetId=${hero!.id}`,
        headers: bearer(other.admin.token),
      });
      assert.equal(foreign.status, 200);
      assert.deepEqual(foreign.body.data, []);
      const crossing = await call(ctx.app, {
        method: 'GET',
        url: '/v1/activity',
        headers: { ...bearer(other.admin.token), 'x-cms-project-id': site.project.id },
      });
      assert.equal(crossing.status, 403);
    });

    it('bad filters and cursors are 400 validation_failed', async () => {
      for (const query of [
        '?action=entry.exploded',
        '?cursor=nope',
        '?limit=0',
        '?limit=201',
        '?colour=red',
      ]) {
        const res = await list(site, query);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.code, 'validation_failed', query);
      }
    });

    it('the worker prunes records older than CMS_ACTIVITY_RETENTION_DAYS', async () => {
      const s = await newSite(ctx.app, 'Retention');
      const day = 24 * 60 * 60 * 1000;
      const now = Date.now();
      await ctx.db.transaction().execute(async (trx) => {
        for (const age of [400, 366, 10]) {
          await recordActivity(
            trx,
            s.project.id,
            { type: 'site' },
            { action: 'definitions.synced', target: { type: 'page', id: `/aged-${age}` }, summary: 'Old.' },
            now - age * day,
          );
        }
      });
      const log = { info() {}, warn() {}, error() {} };
      const handled = await pruneActivityLog.run({ db: ctx.db, config: ctx.config, log } as never, now);
      assert.equal(handled, 0);
      const left = (await all(s, 'action=definitions.synced')).map((r) => r.target.id);
      assert.deepEqual(left, ['/aged-10']);
      assert.ok(
        (await all(s)).some((r) => r.action === 'project.created'),
        'recent records stay',
      );
    });
  },
  { env: { CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true' } },
);
