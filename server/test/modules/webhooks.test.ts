import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newMember, newProject } from '../helpers/factories.js';
import {
  createWebhook,
  describeWithWorker,
  outboxSettled,
  publishableEntry,
  type Receiver,
  startReceiver,
  waitFor,
} from '../helpers/hooks.js';

const env = {
  CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
  CMS_WORKER_POLL_MS: '20',
  CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50',
  CMS_WEBHOOK_TIMEOUT_MS: '1000',
  CMS_WORKER_LEASE_MS: '5000',
};

/** Verifies a received request exactly as a receiver using the reference library would. */
function verify(secret: string, req: { headers: Record<string, unknown>; body: string }) {
  const headers = {
    'webhook-id': String(req.headers['webhook-id']),
    'webhook-timestamp': String(req.headers['webhook-timestamp']),
    'webhook-signature': String(req.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(req.body, headers) as { type: string; timestamp: string; data: any };
}

describeEachDb(
  'webhooks',
  (ctx) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
    });

    it('manages webhooks: secret shown once, catalog listed, unknown event types refused', async () => {
      const { admin } = await newProject(ctx.app);
      const created = await call(ctx.app, {
        method: 'POST',
        url: '/v1/webhooks',
        headers: bearer(admin.token),
        payload: { url: `${receiver.url}/a`, events: ['content.published'], description: 'search' },
      });
      assert.equal(created.status, 201);
      const hook = created.body.data;
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      assert.ok(Buffer.from(hook.secret.slice(6), 'base64').length >= 24);
      assert.equal(hook.active, true);
      assert.match(hook.id, /^whk_/);

      const list = await call(ctx.app, { method: 'GET', url: '/v1/webhooks', headers: bearer(admin.token) });
      assert.equal(list.status, 200);
      assert.equal(list.body.data.webhooks.length, 1);
      assert.equal(list.body.data.webhooks[0].secret, undefined);
      assert.deepEqual(
        list.body.data.eventTypes.map((e: { type: string }) => e.type),
        [
          'content.published',
          'content.unpublished',
          'objects.published',
          'media.uploaded',
          'media.deleted',
          'ping',
        ],
      );

      for (const payload of [
        { url: `${receiver.url}/a`, events: ['content.exploded'] },
        { url: 'ftp://example.com/x', events: ['*'] },
        { url: `${receiver.url}/a`, events: [] },
      ]) {
        const bad = await call(ctx.app, {
          method: 'POST',
          url: '/v1/webhooks',
          headers: bearer(admin.token),
          payload,
        });
        assert.equal(bad.status, 400, JSON.stringify(payload));
        assert.equal(bad.body.error.code, 'validation_failed');
      }

      const patched = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/webhooks/${hook.id}`,
        headers: bearer(admin.token),
        payload: { events: ['*'], active: false, description: 'all' },
      });
      assert.equal(patched.status, 200);
      assert.deepEqual([patched.body.data.events, patched.body.data.active], [['*'], false]);
      assert.equal(patched.body.data.secret, undefined);

      const removed = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/webhooks/${hook.id}`,
        headers: bearer(admin.token),
      });
      assert.deepEqual(removed.body.data, { id: hook.id, deleted: true });
      const again = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/webhooks/${hook.id}`,
        headers: bearer(admin.token),
      });
      assert.equal(again.status, 404);
    });

    it('is admin-only and project-scoped', async () => {
      const a = await newProject(ctx.app);
      const b = await newProject(ctx.app);
      const hook = await createWebhook(ctx.app, a.admin.token, `${receiver.url}/x`);
      const editor = await newMember(ctx.app, a.admin.token, a.project.id, 'editor');
      const asEditor = await call(ctx.app, {
        method: 'GET',
        url: '/v1/webhooks',
        headers: bearer(editor.token),
      });
      assert.equal(asEditor.status, 403);
      for (const [method, url] of [
        ['PATCH', `/v1/webhooks/${hook.id}`],
        ['DELETE', `/v1/webhooks/${hook.id}`],
        ['POST', `/v1/webhooks/${hook.id}/rotate-secret`],
        ['POST', `/v1/webhooks/${hook.id}/test`],
        ['GET', `/v1/webhooks/${hook.id}/deliveries`],
      ] as const) {
        const res = await call(ctx.app, {
          method,
          url,
          headers: bearer(b.admin.token),
          ...(method === 'PATCH' && { payload: { active: false } }),
        });
        assert.equal(res.status, 404, `${method} ${url}`);
      }
      assert.equal(receiver.received.filter((r) => r.url === '/x').length, 0);
    });

    it('test sends a signed ping at once and returns its delivery record', async () => {
      const { project, admin } = await newProject(ctx.app);
      const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/ping`);
      const res = await call(ctx.app, {
        method: 'POST',
        url: `/v1/webhooks/${hook.id}/test`,
        headers: bearer(admin.token),
      });
      assert.equal(res.status, 200);
      const delivery = res.body.data;
      assert.equal(delivery.status, 'succeeded');
      assert.equal(delivery.responseCode, 200);
      assert.equal(delivery.attemptCount, 1);
      assert.equal(delivery.eventType, 'ping');
      assert.equal(delivery.webhookId, hook.id);
      assert.equal(delivery.responseBody, 'ok');
      assert.equal(typeof delivery.durationMs, 'number');

      const got = receiver.received.filter((r) => r.url === '/ping');
      assert.equal(got.length, 1);
      const body = verify(hook.secret, got[0]!);
      assert.equal(body.type, 'ping');
      assert.deepEqual(body.data, { projectId: project.id, webhookId: hook.id });
      assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
      assert.equal(got[0]!.headers['webhook-id'], delivery.id);
      assert.equal(got[0]!.headers['content-type'], 'application/json');
    });

    it('signs with the new secret only after rotate-secret', async () => {
      const { admin } = await newProject(ctx.app);
      const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/rotate`);
      const rotated = await call(ctx.app, {
        method: 'POST',
        url: `/v1/webhooks/${hook.id}/rotate-secret`,
        headers: bearer(admin.token),
      });
      assert.equal(rotated.status, 200);
      const { secret } = rotated.body.data;
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, hook.secret);
      await call(ctx.app, {
        method: 'POST',
        url: `/v1/webhooks/${hook.id}/test`,
        headers: bearer(admin.token),
      });
      const got = receiver.received.filter((r) => r.url === '/rotate');
      assert.equal(got.length, 1);
      assert.equal(verify(secret, got[0]!).type, 'ping');
      assert.throws(() => verify(hook.secret, got[0]!));
    });

    it('does not follow redirects: a 3xx is a failed attempt and the target is never called', async () => {
      const { admin } = await newProject(ctx.app);
      const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/redirect`);
      receiver.answer((req, res) => {
        if (req.url === '/redirect') {
          res.writeHead(302, { location: `${receiver.url}/landed` }).end();
        } else res.end('ok');
      });
      try {
        const res = await call(ctx.app, {
          method: 'POST',
          url: `/v1/webhooks/${hook.id}/test`,
          headers: bearer(admin.token),
        });
        assert.equal(res.body.data.status, 'failed');
        assert.equal(res.body.data.responseCode, 302);
        assert.match(res.body.data.error, /redirect/);
        assert.equal(receiver.received.filter((r) => r.url === '/landed').length, 0);
      } finally {
        receiver.answer((_req, res) => res.end('ok'));
      }
    });

    it('fails an attempt that exceeds the timeout, and stores only the first 1 KB of an answer', async () => {
      const { admin } = await newProject(ctx.app);
      const slow = await startReceiver(() => {}); // never answers
      const big = await startReceiver((_req, res) => res.end('x'.repeat(5000)));
      try {
        const slowHook = await createWebhook(ctx.app, admin.token, `${slow.url}/slow`);
        const timedOut = await call(ctx.app, {
          method: 'POST',
          url: `/v1/webhooks/${slowHook.id}/test`,
          headers: bearer(admin.token),
        });
        assert.equal(timedOut.body.data.status, 'failed');
        assert.equal(timedOut.body.data.responseCode, null);
        assert.match(timedOut.body.data.error, /timed out/);

        const bigHook = await createWebhook(ctx.app, admin.token, `${big.url}/big`);
        const res = await call(ctx.app, {
          method: 'POST',
          url: `/v1/webhooks/${bigHook.id}/test`,
          headers: bearer(admin.token),
        });
        assert.equal(res.body.data.status, 'succeeded');
        assert.equal(res.body.data.responseBody, 'x'.repeat(1024));
      } finally {
        await slow.close();
        await big.close();
      }
    });

    describeWithWorker(ctx, 'delivery by the worker', () => {
      const deliveriesOf = async (token: string, webhookId: string, query = '') =>
        (
          await call(ctx.app, {
            method: 'GET',
            url: `/v1/webhooks/${webhookId}/deliveries${query}`,
            headers: bearer(token),
          })
        ).body;

      it('a publish reaches the webhooks subscribed to it (or to "*") and no others', async () => {
        const { project, admin } = await newProject(ctx.app);
        const r = await startReceiver();
        try {
          const specific = await createWebhook(ctx.app, admin.token, `${r.url}/specific`, [
            'content.published',
          ]);
          const all = await createWebhook(ctx.app, admin.token, `${r.url}/all`, ['*']);
          await createWebhook(ctx.app, admin.token, `${r.url}/media`, ['media.uploaded']);
          const inactive = await createWebhook(ctx.app, admin.token, `${r.url}/inactive`, ['*']);
          await call(ctx.app, {
            method: 'PATCH',
            url: `/v1/webhooks/${inactive.id}`,
            headers: bearer(admin.token),
            payload: { active: false },
          });
          const entry = await publishableEntry(ctx.app, project, admin.token);
          await entry.publish();
          await waitFor(() => r.received.length >= 2, 15_000, 'two deliveries');

          const bySpecific = r.received.filter((x) => x.url === '/specific');
          const byAll = r.received.filter((x) => x.url === '/all');
          assert.equal(bySpecific.length, 1);
          assert.equal(byAll.length, 1);
          const body = verify(specific.secret, bySpecific[0]!);
          assert.equal(body.type, 'content.published');
          assert.equal(body.data.projectId, project.id);
          assert.equal(body.data.pageId, entry.pageId);
          assert.equal(verify(all.secret, byAll[0]!).type, 'content.published');

          const log = await waitFor(
            async () => {
              const page = await deliveriesOf(admin.token, specific.id);
              return page.data[0]?.status === 'succeeded' ? page : null;
            },
            15_000,
            'recorded outcome',
          );
          assert.equal(log.data.length, 1);
          assert.equal(log.data[0].status, 'succeeded');
          assert.equal(log.data[0].eventType, 'content.published');
          assert.equal(log.data[0].id, bySpecific[0]!.headers['webhook-id']);
          assert.match(log.data[0].eventId, /^evt_/);
          // Once everything the event became is sent, nothing else may have arrived: one delivery
          // each (by webhook-id; a retry after a timeout on a loaded machine is the same delivery).
          await outboxSettled(ctx.db, project.id);
          const deliveries = new Map(r.received.map((x) => [x.headers['webhook-id'], x.url]));
          assert.deepEqual([...deliveries.values()].sort(), ['/all', '/specific']);
        } finally {
          await r.close();
        }
      });

      it('retries failures on the schedule with the same webhook-id until success', async () => {
        const { project, admin } = await newProject(ctx.app);
        const r = await startReceiver((_req, res, n) =>
          res.writeHead(n < 2 ? 500 : 200).end(n < 2 ? 'boom' : 'ok'),
        );
        try {
          const hook = await createWebhook(ctx.app, admin.token, `${r.url}/flaky`);
          const entry = await publishableEntry(ctx.app, project, admin.token);
          await entry.publish();
          const [delivery] = (await waitFor(
            async () => {
              const log = await deliveriesOf(admin.token, hook.id);
              return log.data[0]?.status === 'succeeded' ? log.data : null;
            },
            15_000,
            'success after retries',
          )) as any[];
          assert.equal(delivery.attemptCount, 3);
          assert.equal(delivery.responseCode, 200);
          assert.equal(r.received.length, 3);
          assert.equal(new Set(r.received.map((x) => x.headers['webhook-id'])).size, 1);
          for (const req of r.received) verify(hook.secret, req);
        } finally {
          await r.close();
        }
      });

      it('ends as failed after the schedule, and redeliver after the receiver is fixed succeeds', async () => {
        const { project, admin } = await newProject(ctx.app);
        const r = await startReceiver((_req, res) => res.writeHead(500).end('down'));
        try {
          const hook = await createWebhook(ctx.app, admin.token, `${r.url}/down`);
          const entry = await publishableEntry(ctx.app, project, admin.token);
          await entry.publish();
          const failed = await waitFor(
            async () => {
              const log = await deliveriesOf(admin.token, hook.id);
              return log.data[0]?.status === 'failed' ? log.data[0] : null;
            },
            15_000,
            'failed delivery',
          );
          // Three schedule entries: four attempts in all.
          assert.equal(failed.attemptCount, 4);
          assert.equal(failed.responseCode, 500);
          assert.equal(failed.responseBody, 'down');
          assert.equal(failed.nextAttemptAt, null);
          assert.equal(r.received.length, 4);

          r.answer((_req, res) => res.end('fixed'));
          const requeued = await call(ctx.app, {
            method: 'POST',
            url: `/v1/webhooks/${hook.id}/deliveries/${failed.id}/redeliver`,
            headers: bearer(admin.token),
          });
          assert.equal(requeued.status, 200);
          assert.equal(requeued.body.data.id, failed.id);
          assert.equal(requeued.body.data.status, 'pending');
          const done = await waitFor(
            async () => {
              const log = await deliveriesOf(admin.token, hook.id);
              return log.data[0]?.status === 'succeeded' ? log.data[0] : null;
            },
            15_000,
            'redelivered',
          );
          assert.equal(done.attemptCount, 5);
          assert.equal(done.responseBody, 'fixed');
          assert.equal(r.received.length, 5);
          assert.equal(new Set(r.received.map((x) => x.headers['webhook-id'])).size, 1);
          assert.equal(r.received[4]!.headers['webhook-id'], failed.id);

          const unknown = await call(ctx.app, {
            method: 'POST',
            url: `/v1/webhooks/${hook.id}/deliveries/dlv_01JD3ZM0000000000000000000/redeliver`,
            headers: bearer(admin.token),
          });
          assert.equal(unknown.status, 404);
        } finally {
          await r.close();
        }
      });

      it('waits at least Retry-After on 429/503', async () => {
        const { project, admin } = await newProject(ctx.app);
        const r = await startReceiver((_req, res, n) =>
          n === 0 ? res.writeHead(503, { 'retry-after': '1' }).end() : res.end('ok'),
        );
        try {
          const hook = await createWebhook(ctx.app, admin.token, `${r.url}/busy`);
          const entry = await publishableEntry(ctx.app, project, admin.token);
          await entry.publish();
          const first = await waitFor(
            async () =>
              (await deliveriesOf(admin.token, hook.id)).data[0]?.attemptCount === 1 &&
              (await deliveriesOf(admin.token, hook.id)).data[0],
            15_000,
            'first attempt',
          );
          assert.equal(first.responseCode, 503);
          assert.ok(Date.parse(first.nextAttemptAt) - Date.parse(first.lastAttemptAt) >= 1000);
          await waitFor(() => r.received.length === 2, 15_000, 'second attempt');
          assert.ok(r.received[1]!.at - r.received[0]!.at >= 1000, 'the retry came before Retry-After');
        } finally {
          await r.close();
        }
      });

      it('a 410 deactivates the webhook, which then receives nothing', async () => {
        const { project, admin } = await newProject(ctx.app);
        const r = await startReceiver((_req, res) => res.writeHead(410).end('gone'));
        try {
          const hook = await createWebhook(ctx.app, admin.token, `${r.url}/gone`);
          const entry = await publishableEntry(ctx.app, project, admin.token);
          await entry.publish();
          const delivery = await waitFor(
            async () => {
              const log = await deliveriesOf(admin.token, hook.id);
              return log.data[0]?.status === 'failed' ? log.data[0] : null;
            },
            15_000,
            'failed delivery',
          );
          assert.equal(delivery.attemptCount, 1);
          assert.equal(delivery.responseCode, 410);
          const list = await call(ctx.app, {
            method: 'GET',
            url: '/v1/webhooks',
            headers: bearer(admin.token),
          });
          assert.equal(list.body.data.webhooks[0].active, false);

          await entry.publish();
          await outboxSettled(ctx.db, project.id);
          assert.equal(r.received.length, 1);
          assert.equal((await deliveriesOf(admin.token, hook.id)).data.length, 1);
        } finally {
          await r.close();
        }
      });

      it('lists deliveries newest first, paginated', async () => {
        const { admin } = await newProject(ctx.app);
        const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/paged`);
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await call(ctx.app, {
            method: 'POST',
            url: `/v1/webhooks/${hook.id}/test`,
            headers: bearer(admin.token),
          });
          ids.push(res.body.data.id);
        }
        const first = await deliveriesOf(admin.token, hook.id, '?limit=2');
        assert.deepEqual(
          first.data.map((d: { id: string }) => d.id),
          [ids[2], ids[1]],
        );
        assert.ok(first.meta.nextCursor);
        const second = await deliveriesOf(admin.token, hook.id, `?limit=2&cursor=${first.meta.nextCursor}`);
        assert.deepEqual(
          second.data.map((d: { id: string }) => d.id),
          [ids[0]],
        );
        assert.equal(second.meta, undefined);
      });
    });
  },
  { env },
);
