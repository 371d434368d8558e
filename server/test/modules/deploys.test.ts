import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../src/shared/webhook-signing.js';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newMember, newProject } from '../helpers/factories.js';
import {
  describeWithWorker,
  outboxSettled,
  publishableEntry,
  sleep,
  startReceiver,
  waitFor,
} from '../helpers/hooks.js';

// Long enough that three publishes in a row stay one burst on a loaded CI machine (300 ms was not).
const DEBOUNCE_MS = 800;
const env = {
  CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
  CMS_WORKER_POLL_MS: '20',
  CMS_DEPLOY_DEBOUNCE_MS: String(DEBOUNCE_MS),
  CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50',
  CMS_WEBHOOK_TIMEOUT_MS: '1000',
};

describeEachDb(
  'deploy hooks',
  (ctx) => {
    async function setHooks(projectId: string, token: string, hooks: unknown[]) {
      const res = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${projectId}`,
        headers: bearer(token),
        payload: { deployHooks: hooks },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const deploysOf = async (projectId: string, token: string) =>
      (
        await call(ctx.app, {
          method: 'GET',
          url: `/v1/projects/${projectId}/deploys`,
          headers: bearer(token),
        })
      ).body;

    describeWithWorker(ctx, 'with the worker', () => {
      it('three quick publishes make one call per hook: a signed generic call and a GitHub dispatch', async () => {
        const { project, admin } = await newProject(ctx.app);
        const receiver = await startReceiver((req, res) =>
          req.url === '/gh' ? res.writeHead(204).end() : res.end('{"ok":true}'),
        );
        try {
          const secret = newWebhookSecret();
          await setHooks(project.id, admin.token, [
            { id: 'netlify', type: 'generic', url: `${receiver.url}/generic`, secret },
            {
              id: 'gh',
              type: 'github_repository_dispatch',
              url: `${receiver.url}/gh`,
              secret: 'ghp_test_token',
            },
          ]);
          const entry = await publishableEntry(ctx.app, project, admin.token);
          await entry.publish();
          await entry.publish();
          await entry.publish();
          await waitFor(() => receiver.received.length >= 2, 15_000, 'deploy calls');
          await outboxSettled(ctx.db, project.id); // no trigger or call left: nothing more arrives
          assert.deepEqual(receiver.received.map((r) => r.url).sort(), ['/generic', '/gh']);

          const generic = receiver.received.find((r) => r.url === '/generic')!;
          const body = new Webhook(secret).verify(generic.body, {
            'webhook-id': String(generic.headers['webhook-id']),
            'webhook-timestamp': String(generic.headers['webhook-timestamp']),
            'webhook-signature': String(generic.headers['webhook-signature']),
          }) as Record<string, unknown>;
          assert.equal(body.type, 'deploy.requested');
          assert.equal(body.projectId, project.id);
          assert.deepEqual(body.reasons, ['content.published']);
          assert.ok(!Number.isNaN(Date.parse(String(body.requestedAt))));

          const gh = receiver.received.find((r) => r.url === '/gh')!;
          assert.equal(gh.headers.accept, 'application/vnd.github+json');
          assert.equal(gh.headers.authorization, 'Bearer ghp_test_token');
          assert.equal(gh.headers['x-github-api-version'], '2022-11-28');
          const ghBody = JSON.parse(gh.body);
          assert.equal(ghBody.event_type, 'cms-publish');
          assert.equal(ghBody.client_payload.projectId, project.id);
          const snapshot = await ctx.app.inject({
            method: 'GET',
            url: '/v1/snapshot',
            headers: { 'x-cms-key': project.apiKey },
          });
          assert.match(ghBody.client_payload.version, /^sha256:[0-9a-f]{64}$/);
          assert.equal(
            ghBody.client_payload.version,
            snapshot.json().data.version,
            'the published snapshot version',
          );

          const deploys = await waitFor(
            async () => {
              const list = await deploysOf(project.id, admin.token);
              return list.data.length === 2 &&
                list.data.every((d: { status: string }) => d.status !== 'pending')
                ? list.data
                : null;
            },
            15_000,
            'deploy records',
          );
          const byHook = Object.fromEntries(deploys.map((d: { hookId: string }) => [d.hookId, d]));
          assert.equal(byHook.netlify.status, 'succeeded');
          assert.equal(byHook.netlify.responseCode, 200);
          assert.equal(byHook.netlify.attemptCount, 1);
          assert.equal(byHook.netlify.hookType, 'generic');
          assert.equal(byHook.netlify.id, generic.headers['webhook-id']);
          assert.deepEqual(byHook.netlify.reasons, ['content.published']);
          assert.equal(byHook.gh.status, 'succeeded');
          assert.equal(byHook.gh.responseCode, 204);
        } finally {
          await receiver.close();
        }
      });

      it('a continuous stream of publishes still fires by the maximum wait (5x the debounce)', async () => {
        const { project, admin } = await newProject(ctx.app);
        const receiver = await startReceiver();
        try {
          await setHooks(project.id, admin.token, [
            { id: 'hook', type: 'generic', url: `${receiver.url}/stream` },
          ]);
          const entry = await publishableEntry(ctx.app, project, admin.token);
          // Publish every ~100 ms (well under the debounce) for 12x the debounce.
          const streamEnd = Date.now() + DEBOUNCE_MS * 12;
          while (Date.now() < streamEnd) {
            await entry.publish();
            await sleep(100);
          }
          assert.ok(receiver.received.length >= 1, 'no deploy call while publishes kept coming');
          assert.ok(receiver.received[0]!.at < streamEnd);
          assert.equal(
            receiver.received[0]!.headers['webhook-signature'],
            undefined,
            'no secret, no signature',
          );
        } finally {
          await receiver.close();
        }
      });

      it('retries a failed deploy call on the schedule and records the attempts', async () => {
        const { project, admin } = await newProject(ctx.app);
        const receiver = await startReceiver((_req, res, n) => res.writeHead(n === 0 ? 502 : 200).end());
        try {
          await setHooks(project.id, admin.token, [
            { id: 'flaky', type: 'generic', url: `${receiver.url}/flaky` },
          ]);
          const entry = await publishableEntry(ctx.app, project, admin.token);
          await entry.publish();
          const [deploy] = await waitFor(
            async () => {
              const list = await deploysOf(project.id, admin.token);
              return list.data[0]?.status === 'succeeded' ? list.data : null;
            },
            15_000,
            'deploy success',
          );
          assert.equal(deploy.attemptCount, 2);
          assert.equal(receiver.received.length, 2);
          assert.equal(receiver.received[0]!.body, receiver.received[1]!.body);
        } finally {
          await receiver.close();
        }
      });
    });

    it('lists deploys for admins only', async () => {
      const { project, admin } = await newProject(ctx.app);
      const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
      const asEditor = await call(ctx.app, {
        method: 'GET',
        url: `/v1/projects/${project.id}/deploys`,
        headers: bearer(editor.token),
      });
      assert.equal(asEditor.status, 403);
      const other = await newProject(ctx.app);
      const asOther = await call(ctx.app, {
        method: 'GET',
        url: `/v1/projects/${project.id}/deploys`,
        headers: bearer(other.admin.token),
      });
      assert.equal(asOther.status, 403);
      const empty = await deploysOf(project.id, admin.token);
      assert.deepEqual(empty, { data: [], error: null });
    });
  },
  { env },
);
