import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newMember, newProject } from '../helpers/factories.js';
import {
  createWebhook,
  describeWithWorker,
  publishableEntry,
  startReceiver,
  waitFor,
} from '../helpers/hooks.js';

/** Contract §12: POST /v1/webhooks/:id/recover after a receiver outage. */

const env = {
  CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
  CMS_WORKER_POLL_MS: '20',
  CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50',
  CMS_WEBHOOK_TIMEOUT_MS: '1000',
  CMS_WORKER_LEASE_MS: '5000',
};

const DAY = 86_400_000;

interface DeliveryBody {
  id: string;
  status: string;
  attemptCount: number;
  responseBody: string | null;
}

describeEachDb(
  'webhook recovery',
  (ctx) => {
    const recover = (token: string, webhookId: string, since: string) =>
      call(ctx.app, {
        method: 'POST',
        url: `/v1/webhooks/${webhookId}/recover`,
        headers: bearer(token),
        payload: { since },
      });
    const deliveriesOf = async (token: string, webhookId: string): Promise<DeliveryBody[]> =>
      (
        await call(ctx.app, {
          method: 'GET',
          url: `/v1/webhooks/${webhookId}/deliveries`,
          headers: bearer(token),
        })
      ).body.data;

    it('refuses a since older than 30 days (400), another project (404), an editor (403) and an inactive webhook (409)', async () => {
      const { admin, project } = await newProject(ctx.app);
      const other = await newProject(ctx.app, 'Other');
      const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
      const hook = await createWebhook(ctx.app, admin.token, 'http://127.0.0.1:9/hook');
      const recent = new Date(Date.now() - DAY).toISOString();

      const tooOld = await recover(admin.token, hook.id, new Date(Date.now() - 31 * DAY).toISOString());
      assert.equal(tooOld.status, 400);
      assert.equal(tooOld.body.error.code, 'validation_failed');
      assert.equal(tooOld.body.error.details[0].path, 'body.since');
      const notATime = await recover(admin.token, hook.id, 'yesterday');
      assert.equal(notATime.status, 400);
      // Exactly 30 days back is within reach.
      assert.equal(
        (await recover(admin.token, hook.id, new Date(Date.now() - 30 * DAY).toISOString())).status,
        200,
      );

      assert.equal((await recover(other.admin.token, hook.id, recent)).status, 404);
      assert.equal((await recover(admin.token, 'whk_01JD3ZM0000000000000000000', recent)).status, 404);
      assert.equal((await recover(editor.token, hook.id, recent)).status, 403);

      await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/webhooks/${hook.id}`,
        headers: bearer(admin.token),
        payload: { active: false },
      });
      const inactive = await recover(admin.token, hook.id, recent);
      assert.equal(inactive.status, 409);
      assert.equal(inactive.body.error.code, 'conflict');
    });

    describeWithWorker(ctx, 'with the worker', () => {
      it("requeues exactly this webhook's failed deliveries created since `since`, keeping their ids", async () => {
        const { project, admin } = await newProject(ctx.app);
        const r = await startReceiver();
        try {
          const hook = await createWebhook(ctx.app, admin.token, `${r.url}/a`, ['content.published']);
          const sibling = await createWebhook(ctx.app, admin.token, `${r.url}/b`, ['content.published']);
          const entry = await publishableEntry(ctx.app, project, admin.token);
          // One delivery that succeeds, then an outage: three that fail for good.
          await entry.publish();
          await waitFor(async () => (await deliveriesOf(admin.token, hook.id))[0]?.status === 'succeeded');
          r.answer((_req, res) => res.writeHead(503).end('outage'));
          for (let i = 0; i < 3; i++) await entry.publish();
          const allFailed = async (id: string) => {
            const log = await deliveriesOf(admin.token, id);
            return log.filter((d) => d.status === 'failed').length >= 3 ? log : null;
          };
          const before = (await waitFor(() => allFailed(hook.id), 15_000, 'failed deliveries'))!;
          await waitFor(() => allFailed(sibling.id), 15_000, 'sibling failed deliveries');
          const siblingBefore = await deliveriesOf(admin.token, sibling.id);
          const failed = before.filter((d) => d.status === 'failed');
          // The oldest failure falls before `since`.
          const old = failed[failed.length - 1]!;
          await ctx.db
            .updateTable('webhookDeliveries')
            .set({ createdAt: new Date(Date.now() - 2 * DAY).toISOString() })
            .where('id', '=', old.id)
            .execute();
          const expected = failed.filter((d) => d.id !== old.id).map((d) => d.id);

          r.answer((_req, res) => res.end('back'));
          const seen = r.received.length;
          const res = await recover(admin.token, hook.id, new Date(Date.now() - DAY).toISOString());
          assert.equal(res.status, 200);
          assert.deepEqual(res.body.data, { requeued: 2 });

          const after = (await waitFor(
            async () => {
              const log = await deliveriesOf(admin.token, hook.id);
              return log.filter((d) => d.status === 'succeeded').length === 3 ? log : null;
            },
            15_000,
            'recovered deliveries',
          ))!;
          const byId = new Map(after.map((d) => [d.id, d]));
          for (const id of expected) {
            assert.equal(byId.get(id)?.status, 'succeeded');
            assert.equal(byId.get(id)?.attemptCount, 5);
            assert.equal(byId.get(id)?.responseBody, 'back');
          }
          assert.equal(byId.get(old.id)?.status, 'failed');
          assert.equal(byId.get(old.id)?.attemptCount, 4);
          // The receiver got one new request per recovered delivery, under its own webhook-id.
          const resent = r.received.slice(seen);
          assert.deepEqual(
            resent.map((x) => x.url),
            ['/a', '/a'],
          );
          assert.deepEqual(resent.map((x) => String(x.headers['webhook-id'])).sort(), [...expected].sort());
          // The other webhook of the project was left alone.
          assert.deepEqual(await deliveriesOf(admin.token, sibling.id), siblingBefore);
        } finally {
          await r.close();
        }
      });
    });
  },
  { env },
);
