import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { pageUrl, type Site, sync } from '../helpers/content.js';
import { bearer, call, newMember, newProject } from '../helpers/factories.js';
import {
  createWebhook,
  describeWithWorker,
  outboxSettled,
  startReceiver,
  waitFor,
} from '../helpers/hooks.js';

/** The parts of a Site that sync reads (the publishable key). */
const site = (project: { apiKey: string }, admin: { token: string }) =>
  ({ key: { 'x-cms-key': project.apiKey }, admin }) as unknown as Site;

const EN_FR = {
  default: 'en',
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-ca', fallback: 'FR' }],
};

/** The project's `locales` setting (contract §14, §17): validation, canonical codes, 409s, activity. */
describeEachDb(
  'project locales',
  (ctx) => {
    const patch = (projectId: string, token: string, payload: unknown) =>
      call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${projectId}`,
        headers: bearer(token),
        payload: payload as object,
      });
    const get = async (projectId: string, token: string) =>
      (await call(ctx.app, { method: 'GET', url: `/v1/projects/${projectId}`, headers: bearer(token) })).body
        .data;

    it('is null by default, stored canonical, and named in the activity', async () => {
      const { project, admin } = await newProject(ctx.app);
      assert.equal((await get(project.id, admin.token)).locales, null);
      const res = await patch(project.id, admin.token, { locales: EN_FR });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const expected = {
        default: 'en',
        available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
      };
      assert.deepEqual(res.body.data.locales, expected);
      assert.deepEqual((await get(project.id, admin.token)).locales, expected);
      const activity = await call(ctx.app, {
        method: 'GET',
        url: '/v1/activity?action=project.updated',
        headers: { ...bearer(admin.token), 'x-cms-project-id': project.id },
      });
      assert.equal(activity.status, 200, JSON.stringify(activity.body));
      assert.match(
        activity.body.data[0].summary,
        /locales\. Locales: en \(default\), fr \(falls back to en\), fr-CA \(falls back to fr\)\./,
      );
    });

    it('refuses a setting that does not hold together, with a path for each problem, and writes nothing', async () => {
      const { project, admin } = await newProject(ctx.app);
      const cases: [unknown, string][] = [
        [
          { default: 'en', available: [{ code: 'en' }, { code: 'en_US', fallback: 'en' }] },
          'body.locales.available[1].code',
        ],
        [{ default: 'de', available: [{ code: 'en' }] }, 'body.locales.default'],
        [
          {
            default: 'en',
            available: [
              { code: 'en', fallback: 'fr' },
              { code: 'fr', fallback: 'en' },
            ],
          },
          'body.locales.available[0].fallback',
        ],
        [
          {
            default: 'en',
            available: [{ code: 'en' }, { code: 'fr', fallback: 'de' }, { code: 'de', fallback: 'fr' }],
          },
          'body.locales.available[1].fallback',
        ],
        [
          { default: 'en', available: [{ code: 'en' }, { code: 'fr' }] },
          'body.locales.available[1].fallback',
        ],
        [
          { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'it' }] },
          'body.locales.available[1].fallback',
        ],
        [{ default: 'en', available: [{ code: 'en' }, { code: 'EN' }] }, 'body.locales.available[1].code'],
        [{ default: 'en', available: [] }, 'body.locales.available'],
        [
          {
            default: 'en',
            available: [
              { code: 'en' },
              ...Array.from({ length: 50 }, (_, i) => ({
                code: `en-${String(i).padStart(3, '0')}`,
                fallback: 'en',
              })),
            ],
          },
          'body.locales.available',
        ],
      ];
      for (const [locales, path] of cases) {
        const res = await patch(project.id, admin.token, { locales });
        assert.equal(res.status, 400, `${JSON.stringify(locales)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'validation_failed');
        assert.ok(
          res.body.error.details.some((d: { path: string }) => d.path === path),
          `${path} in ${JSON.stringify(res.body.error.details)}`,
        );
      }
      assert.equal((await get(project.id, admin.token)).locales, null);
    });

    it('never changes its default once set (409); null goes back to one language while nothing else is held', async () => {
      const { project, admin } = await newProject(ctx.app);
      assert.equal((await patch(project.id, admin.token, { locales: EN_FR })).status, 200);
      const other = await patch(project.id, admin.token, {
        locales: { default: 'fr', available: [{ code: 'fr' }, { code: 'en', fallback: 'fr' }] },
      });
      assert.equal(other.status, 409, JSON.stringify(other.body));
      assert.equal(other.body.error.code, 'conflict');
      assert.match(other.body.error.message, /default locale is "en"/);
      // Removing and adding locales keeps the default: fine.
      const fewer = await patch(project.id, admin.token, {
        locales: { default: 'en', available: [{ code: 'en' }] },
      });
      assert.equal(fewer.status, 200, JSON.stringify(fewer.body));
      const none = await patch(project.id, admin.token, { locales: null });
      assert.equal(none.status, 200, JSON.stringify(none.body));
      assert.equal(none.body.data.locales, null);
      // Once null, any default may be set again.
      const again = await patch(project.id, admin.token, {
        locales: { default: 'fr', available: [{ code: 'fr' }] },
      });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.data.locales.default, 'fr');
    });

    it('is an admin setting', async () => {
      const { project, admin } = await newProject(ctx.app);
      const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
      const res = await patch(project.id, editor.token, { locales: EN_FR });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal((await get(project.id, admin.token)).locales, null);
    });

    describeWithWorker(ctx, 'with the worker', () => {
      it('removing a locale moves the deploy hooks and sends no webhook event', async () => {
        const { project, admin } = await newProject(ctx.app);
        const receiver = await startReceiver();
        try {
          await createWebhook(ctx.app, admin.token, `${receiver.url}/webhook`, ['*']);
          const hooks = [{ id: 'build', type: 'generic', url: `${receiver.url}/deploy` }];
          assert.equal(
            (await patch(project.id, admin.token, { deployHooks: hooks, locales: EN_FR })).status,
            200,
          );
          await outboxSettled(ctx.db, project.id);
          assert.equal(receiver.received.length, 0, 'setting locales is not a publish');
          const fewer = { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] };
          assert.equal((await patch(project.id, admin.token, { locales: fewer })).status, 200);
          await waitFor(() => receiver.received.length >= 1, 15_000, 'the deploy call');
          await outboxSettled(ctx.db, project.id);
          assert.deepEqual(
            receiver.received.map((r) => r.url),
            ['/deploy'],
          );
          const body = JSON.parse(receiver.received[0]?.body ?? '{}');
          assert.deepEqual(body.reasons, ['project.locales_removed']);
          assert.deepEqual(body.locales, ['fr-CA'], 'the removed locale: what the site built for it must go');

          // A publish in fr names fr (the generic body's locales, §17).
          await sync(ctx.app, site(project, admin), '/', [
            {
              componentId: 'Hero',
              instanceKey: 'hero',
              fields: [{ key: 'title', type: 'text', localized: true }],
            },
          ]);
          const entries = await call(ctx.app, {
            method: 'GET',
            url: pageUrl('/'),
            headers: { 'x-cms-key': project.apiKey, ...bearer(admin.token) },
          });
          const published = await call(ctx.app, {
            method: 'PATCH',
            url: `/v1/content/${entries.body.data[0].id}?locale=fr`,
            headers: { 'x-cms-key': project.apiKey, ...bearer(admin.token) },
            payload: { fields: { title: 'Bonjour' }, status: 'published' },
          });
          assert.equal(published.status, 200, JSON.stringify(published.body));
          const deploys = () => receiver.received.filter((r) => r.url === '/deploy');
          await waitFor(() => deploys().length >= 2, 15_000, 'the second deploy call');
          const second = JSON.parse(deploys()[1]?.body ?? '{}');
          assert.deepEqual(second.reasons, ['content.published']);
          assert.deepEqual(second.locales, ['fr']);
        } finally {
          await receiver.close();
        }
      });
    });
  },
  {
    env: {
      CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
      CMS_WORKER_POLL_MS: '20',
      CMS_DEPLOY_DEBOUNCE_MS: '50',
      CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50',
    },
  },
);
