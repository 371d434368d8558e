import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { openDatabase } from '../../src/db/connect.js';
import { newWebhookSecret } from '../../src/shared/webhook-signing.js';
import { describeEachDb, type TestContext } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';
import {
  createWebhook,
  outboxSettled,
  publishableEntry,
  quietLog,
  startReceiver,
  startTestWorker,
  waitFor,
} from '../helpers/hooks.js';
import { type ServerProcess, startServerProcess } from '../helpers/process.js';

const databaseUrlOf = (ctx: TestContext) =>
  ctx.database.config.kind === 'postgres' ? ctx.database.config.url : `sqlite:${ctx.database.config.file}`;

describeEachDb(
  'worker: crashes and several instances',
  (ctx) => {
    const children: ServerProcess[] = [];
    const spawnServer = async (env: Record<string, string>) => {
      const child = await startServerProcess({
        DATABASE_URL: databaseUrlOf(ctx),
        CMS_DATA_DIR: ctx.config.dataDir,
        CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
        CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50',
        ...env,
      });
      children.push(child);
      return child;
    };
    const kill = async (child: ServerProcess, signal: NodeJS.Signals) => {
      child.child.kill(signal);
      await child.exited;
    };
    after(async () => {
      for (const c of children)
        if (c.child.exitCode === null && c.child.signalCode === null) await kill(c, 'SIGKILL');
    });

    /** Publishes through the child's HTTP API, so the event is committed by the process we kill. */
    async function publishVia(child: ServerProcess, apiKey: string, token: string, entryId: string) {
      const res = await fetch(`${child.url}/v1/content/${entryId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-cms-key': apiKey, ...bearer(token) },
        body: JSON.stringify({ fields: { title: `at ${Date.now()}` }, status: 'published' }),
      });
      assert.equal(res.status, 200);
    }

    it('an event committed before a SIGKILL is delivered once after restart', async () => {
      const { project, admin } = await newProject(ctx.app);
      const receiver = await startReceiver();
      try {
        const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/crash`, [
          'content.published',
        ]);
        const entry = await publishableEntry(ctx.app, project, admin.token);
        // First process: its worker would only look after an hour, so the event is still in the outbox.
        const first = await spawnServer({ CMS_WORKER_POLL_MS: '3600000' });
        await publishVia(first, project.apiKey, admin.token, entry.entryId);
        await kill(first, 'SIGKILL');
        assert.equal(receiver.received.length, 0);

        const second = await spawnServer({ CMS_WORKER_POLL_MS: '20' });
        await waitFor(() => receiver.received.length >= 1, 20_000, 'delivery after restart');
        await outboxSettled(ctx.db, project.id, 20_000);
        assert.equal(receiver.received.length, 1);
        assert.equal(JSON.parse(receiver.received[0]!.body).type, 'content.published');
        const log = await waitFor(
          async () => {
            const page = await call(ctx.app, {
              method: 'GET',
              url: `/v1/webhooks/${hook.id}/deliveries`,
              headers: bearer(admin.token),
            });
            return page.body.data[0]?.status === 'succeeded' ? page.body.data : null;
          },
          15_000,
          'recorded outcome',
        );
        assert.equal(log.length, 1);
        await kill(second, 'SIGTERM');
      } finally {
        await receiver.close();
      }
    });

    it('a delivery in flight when its process is killed is attempted again, with the same webhook-id, after its lease', async () => {
      const { project, admin } = await newProject(ctx.app);
      // The first request is held (never answered); later ones succeed.
      const receiver = await startReceiver((_req, res, n) => {
        if (n > 0) res.end('ok');
      });
      try {
        const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/inflight`, ['*']);
        const entry = await publishableEntry(ctx.app, project, admin.token);
        const env = { CMS_WORKER_POLL_MS: '20', CMS_WEBHOOK_TIMEOUT_MS: '5000', CMS_WORKER_LEASE_MS: '6000' };
        const first = await spawnServer(env);
        await publishVia(first, project.apiKey, admin.token, entry.entryId);
        await waitFor(() => receiver.received.length >= 1, 20_000, 'first attempt');
        await kill(first, 'SIGKILL');

        const second = await spawnServer(env);
        await waitFor(() => receiver.received.length >= 2, 30_000, 'attempt after the lease');
        const delivery = await waitFor(
          async () => {
            const log = await call(ctx.app, {
              method: 'GET',
              url: `/v1/webhooks/${hook.id}/deliveries`,
              headers: bearer(admin.token),
            });
            return log.body.data[0]?.status === 'succeeded' ? log.body.data[0] : null;
          },
          20_000,
          'recorded success',
        );
        assert.equal(receiver.received.length, 2);
        assert.equal(receiver.received[0]!.headers['webhook-id'], delivery.id);
        assert.equal(receiver.received[1]!.headers['webhook-id'], delivery.id);
        assert.equal(delivery.attemptCount, 1);
        await kill(second, 'SIGTERM');
      } finally {
        await receiver.close();
      }
    });

    it('prunes finished deliveries older than the retention period', async () => {
      const { admin } = await newProject(ctx.app);
      const receiver = await startReceiver();
      try {
        const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/old`);
        const list = () =>
          call(ctx.app, {
            method: 'GET',
            url: `/v1/webhooks/${hook.id}/deliveries`,
            headers: bearer(admin.token),
          });
        const old = (
          await call(ctx.app, {
            method: 'POST',
            url: `/v1/webhooks/${hook.id}/test`,
            headers: bearer(admin.token),
          })
        ).body.data;
        const recent = (
          await call(ctx.app, {
            method: 'POST',
            url: `/v1/webhooks/${hook.id}/test`,
            headers: bearer(admin.token),
          })
        ).body.data;
        // Arrange: the first delivery is 31 days old (retention defaults to 30).
        await ctx.db
          .updateTable('webhookDeliveries')
          .set({ createdAt: new Date(Date.now() - 31 * 86_400_000).toISOString() })
          .where('id', '=', old.id)
          .execute();
        const worker = startTestWorker({
          db: ctx.db,
          config: { ...ctx.config, workerPollMs: 10 },
          log: quietLog,
        });
        try {
          const remaining = await waitFor(
            async () => {
              const data = (await list()).body.data as { id: string }[];
              return data.length === 1 ? data : null;
            },
            15_000,
            'pruning',
          );
          assert.equal(remaining?.[0]?.id, recent.id);
        } finally {
          await worker.stop();
        }
      } finally {
        await receiver.close();
      }
    });

    describeTwoInstances(ctx);
  },
  { env: { CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true', CMS_DEPLOY_DEBOUNCE_MS: '200' } },
);

/** Two workers, each with its own connection pool, on one database: every message is sent once. */
function describeTwoInstances(ctx: TestContext) {
  it('two instances on one database send each message once', async () => {
    const { project, admin } = await newProject(ctx.app);
    const receiver = await startReceiver((_req, res) => setTimeout(() => res.end('ok'), 2));
    const other = await openDatabase(ctx.database.config);
    const config = { ...ctx.config, workerPollMs: 10, workerBatchSize: 20 };
    const workers = [
      startTestWorker({ db: ctx.db, config, log: quietLog }),
      startTestWorker({ db: other.db, config, log: quietLog }),
    ];
    try {
      await createWebhook(ctx.app, admin.token, `${receiver.url}/a`, ['*']);
      await createWebhook(ctx.app, admin.token, `${receiver.url}/b`, ['content.published']);
      await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload: {
          deployHooks: [
            { id: 'd', type: 'generic', url: `${receiver.url}/deploy`, secret: newWebhookSecret() },
          ],
        },
      });
      const entry = await publishableEntry(ctx.app, project, admin.token);
      const publishes = 60;
      for (let i = 0; i < publishes; i++) await entry.publish();

      const webhookCalls = () => receiver.received.filter((r) => r.url !== '/deploy');
      await waitFor(() => webhookCalls().length >= 2 * publishes, 30_000, 'all deliveries');
      const deploysDone = async () => {
        // Settled: no debounced trigger left to fire, and every call made.
        const trigger = await ctx.db
          .selectFrom('deployTriggers')
          .select('projectId')
          .where('projectId', '=', project.id)
          .executeTakeFirst();
        const list = await call(ctx.app, {
          method: 'GET',
          url: `/v1/projects/${project.id}/deploys?limit=200`,
          headers: bearer(admin.token),
        });
        const data = list.body.data as { status: string }[];
        return !trigger && data.length > 0 && data.every((d) => d.status === 'succeeded') ? data : null;
      };
      await waitFor(deploysDone, 30_000, 'deploy calls');
      await outboxSettled(ctx.db, project.id, 30_000);
      const deploys = (await deploysDone()) ?? [];

      const ids = webhookCalls().map((r) => r.headers['webhook-id']);
      assert.equal(ids.length, 2 * publishes);
      assert.equal(new Set(ids).size, ids.length, 'a delivery was sent twice');
      const deployIds = receiver.received
        .filter((r) => r.url === '/deploy')
        .map((r) => r.headers['webhook-id']);
      assert.equal(deployIds.length, deploys.length);
      assert.equal(new Set(deployIds).size, deployIds.length, 'a deploy call was sent twice');
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await other.close();
      await receiver.close();
    }
  });
}
