import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newProject } from '../helpers/factories.js';
import {
  createWebhook,
  outboxSettled,
  publishableEntry,
  quietLog,
  sleep,
  startReceiver,
  startTestWorker,
} from '../helpers/hooks.js';

const env = {
  CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
  CMS_WORKER_POLL_MS: '20',
  CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50',
  CMS_WEBHOOK_TIMEOUT_MS: '1000',
  // outboxSettled waits for deploy triggers too: none to wait 10 s for.
  CMS_DEPLOY_DEBOUNCE_MS: '0',
};

/**
 * Issue 44: an event is delivered to the webhooks that existed when it happened. The worker was not
 * running, so the event was still pending when a webhook was created; the dispatch then gave it to
 * that webhook too, which received something that happened before it existed.
 */
describeEachDb(
  'a webhook created after an event',
  (ctx) => {
    it('does not receive it; a webhook created before it does, and the next event reaches both', async () => {
      const { project, admin } = await newProject(ctx.app);
      const receiver = await startReceiver();
      const worker = { stop: async () => {} };
      try {
        await createWebhook(ctx.app, admin.token, `${receiver.url}/before`, ['content.published']);
        const entry = await publishableEntry(ctx.app, project, admin.token);
        await entry.publish(); // the event, pending: no worker runs yet
        await sleep(5); // a later millisecond than the event's
        await createWebhook(ctx.app, admin.token, `${receiver.url}/after`, ['content.published']);

        Object.assign(worker, startTestWorker({ db: ctx.db, config: ctx.config, log: quietLog }));
        await outboxSettled(ctx.db, project.id);
        assert.deepEqual(
          receiver.received.map((r) => r.url),
          ['/before'],
        );

        await entry.publish();
        await outboxSettled(ctx.db, project.id);
        assert.deepEqual(receiver.received.map((r) => r.url).sort(), ['/after', '/before', '/before']);
      } finally {
        await worker.stop();
        await receiver.close();
      }
    });
  },
  { env },
);
