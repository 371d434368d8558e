import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { describeWithWorker, outboxSettled, startReceiver, waitFor } from '../helpers/hooks.js';

const env = {
  CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
  CMS_WORKER_POLL_MS: '20',
  CMS_DEPLOY_DEBOUNCE_MS: '300',
  CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50',
  CMS_WEBHOOK_TIMEOUT_MS: '1000',
};

/** Contract §17: in a project with locales a repository dispatch's `client_payload.version` is the `*` snapshot's. */
describeEachDb(
  'languages: repository dispatch version',
  (ctx) => {
    describeWithWorker(ctx, 'with the worker', () => {
      it('a publish in fr dispatches the version of GET /v1/snapshot?locale=*', async () => {
        const site = await newSite(ctx.app);
        const receiver = await startReceiver((_req, res) => res.writeHead(204).end());
        try {
          const res = await call(ctx.app, {
            method: 'PATCH',
            url: `/v1/projects/${site.project.id}`,
            headers: bearer(site.admin.token),
            payload: {
              locales: { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] },
              deployHooks: [
                {
                  id: 'gh',
                  type: 'github_repository_dispatch',
                  url: `${receiver.url}/gh`,
                  secret: 'ghp_test_token',
                },
              ],
            },
          });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          await sync(ctx.app, site, '/', [
            {
              componentId: 'Card',
              instanceKey: 'card',
              fields: [{ key: 'title', type: 'text', localized: true }],
            },
          ]);
          const [entry] = await editorEntries(ctx.app, site, '/');
          for (const locale of ['en', 'fr']) {
            const published = await call(ctx.app, {
              method: 'PATCH',
              url: `/v1/content/${entry?.id}?locale=${locale}`,
              headers: site.editing,
              payload: { fields: { title: `Title ${locale}` }, status: 'published' },
            });
            assert.equal(published.status, 200, JSON.stringify(published.body));
          }
          await waitFor(() => receiver.received.length >= 1, 15_000, 'the dispatch');
          await outboxSettled(ctx.db, site.project.id);
          const last = receiver.received.at(-1);
          const payload = JSON.parse(last?.body ?? '{}').client_payload;
          const all = await call(ctx.app, { method: 'GET', url: '/v1/snapshot?locale=*', headers: site.key });
          assert.equal(all.body.data.schema, 2);
          assert.equal(payload.version, all.body.data.version);
          const plain = await call(ctx.app, { method: 'GET', url: '/v1/snapshot', headers: site.key });
          assert.notEqual(payload.version, plain.body.data.version);
        } finally {
          await receiver.close();
        }
      });
    });
  },
  { env },
);
