import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/connect.js';
import { startWorker } from '../../src/jobs/worker.js';
import { createSecretBox, EncryptionKey } from '../../src/shared/secret-box.js';
import { keyFilePath } from '../../src/shared/secret-keys.js';
import { describeEachDb, type TestContext, testConfig } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';
import {
  createWebhook,
  publishableEntry,
  quietLog,
  type Receiver,
  startReceiver,
  waitFor,
} from '../helpers/hooks.js';

/** Issue 10 #14: webhook and deploy-hook secrets are stored sealed (AES-256-GCM), never in clear. */

const env = {
  CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
  CMS_WORKER_POLL_MS: '20',
  CMS_WEBHOOK_RETRY_SCHEDULE: '50',
  CMS_WEBHOOK_TIMEOUT_MS: '1000',
  CMS_WORKER_LEASE_MS: '5000',
};
const WHSEC = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

const verify = (secret: string, req: { headers: Record<string, unknown>; body: string }) =>
  new Webhook(secret).verify(req.body, {
    'webhook-id': String(req.headers['webhook-id']),
    'webhook-timestamp': String(req.headers['webhook-timestamp']),
    'webhook-signature': String(req.headers['webhook-signature']),
  });

const webhookSecretRow = async (ctx: TestContext, id: string) =>
  (await ctx.db.selectFrom('webhooks').select('secret').where('id', '=', id).executeTakeFirstOrThrow())
    .secret;

const deployHookSecretRow = async (ctx: TestContext, projectId: string, id: string) =>
  (
    await ctx.db
      .selectFrom('deployHooks')
      .select('secret')
      .where('projectId', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).secret;

/** Sends a test ping through `app` and returns the request the receiver got. */
async function ping(app: FastifyInstance, token: string, webhookId: string, receiver: Receiver) {
  const seen = receiver.received.length;
  const res = await call(app, {
    method: 'POST',
    url: `/v1/webhooks/${webhookId}/test`,
    headers: bearer(token),
  });
  assert.equal(res.status, 200);
  return { delivery: res.body.data, request: receiver.received[seen] };
}

/** Another instance of the server on the same database: building it and `ready()` is a start. */
async function startInstance(ctx: TestContext, extraEnv: Record<string, string>) {
  const database = await openDatabase(ctx.database.config);
  const app = await buildApp({
    config: testConfig({ ...env, CMS_DATA_DIR: ctx.config.dataDir, ...extraEnv }),
    database,
  });
  return {
    app,
    async ready() {
      await app.ready();
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

describeEachDb(
  'secrets at rest, with the key file',
  (ctx) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(async () => receiver.close());

    it('without CMS_ENCRYPTION_KEY the key file is created in CMS_DATA_DIR, mode 0600', () => {
      assert.equal(ctx.config.encryptionKey, null);
      assert.equal(statSync(keyFilePath(ctx.config.dataDir)).mode & 0o777, 0o600);
    });

    it('a webhook secret is never in the database in clear, after create or rotate, and still signs', async () => {
      const { admin } = await newProject(ctx.app);
      const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/a`);
      const stored = await webhookSecretRow(ctx, hook.id);
      assert.match(stored, /^enc1:[0-9a-f]{16}:/);
      assert.ok(!stored.includes(hook.secret.slice('whsec_'.length)));
      verify(hook.secret, (await ping(ctx.app, admin.token, hook.id, receiver)).request!);

      const rotated = await call(ctx.app, {
        method: 'POST',
        url: `/v1/webhooks/${hook.id}/rotate-secret`,
        headers: bearer(admin.token),
      });
      const secret: string = rotated.body.data.secret;
      const after = await webhookSecretRow(ctx, hook.id);
      assert.match(after, /^enc1:/);
      assert.ok(!after.includes(secret.slice('whsec_'.length)));
      verify(secret, (await ping(ctx.app, admin.token, hook.id, receiver)).request!);
    });

    it('a deploy hook secret (a GitHub token) is never in the database in clear', async () => {
      const { project, admin } = await newProject(ctx.app);
      const res = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload: {
          deployHooks: [
            {
              id: 'gh',
              type: 'github_repository_dispatch',
              url: `${receiver.url}/gh`,
              secret: 'ghp_s3cr3tToken',
            },
            { id: 'gen', type: 'generic', url: `${receiver.url}/gen`, secret: WHSEC },
          ],
        },
      });
      assert.equal(res.status, 200);
      for (const [id, plain] of [
        ['gh', 'ghp_s3cr3tToken'],
        ['gen', WHSEC],
      ] as const) {
        const stored = (await deployHookSecretRow(ctx, project.id, id)) ?? '';
        assert.match(stored, /^enc1:/);
        assert.ok(!stored.includes(plain) && !stored.includes(plain.slice(6)));
      }
      // A kept secret is checked in clear: a GitHub token is no whsec_ secret for a generic hook.
      const retyped = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload: { deployHooks: [{ id: 'gh', type: 'generic', url: `${receiver.url}/gh` }] },
      });
      assert.equal(retyped.status, 400);
    });

    it('secrets stored in clear before encryption are sealed at the next start, and still work', async () => {
      const { project, admin } = await newProject(ctx.app);
      const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/legacy`);
      await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload: {
          deployHooks: [
            { id: 'gh', type: 'github_repository_dispatch', url: `${receiver.url}/gh`, secret: 'x' },
          ],
        },
      });
      // Rows as an older Folio wrote them: in clear.
      await ctx.db.updateTable('webhooks').set({ secret: WHSEC }).where('id', '=', hook.id).execute();
      await ctx.db
        .updateTable('deployHooks')
        .set({ secret: 'ghp_legacyToken' })
        .where('projectId', '=', project.id)
        .execute();
      // Until a start seals it, a row in clear is read as it is.
      verify(WHSEC, (await ping(ctx.app, admin.token, hook.id, receiver)).request!);

      // Two instances starting at once: each seals what it finds, neither loses a value.
      const [a, b] = [await startInstance(ctx, {}), await startInstance(ctx, {})];
      try {
        await Promise.all([a.ready(), b.ready()]);
        const sealed = await webhookSecretRow(ctx, hook.id);
        assert.match(sealed, /^enc1:/);
        assert.match((await deployHookSecretRow(ctx, project.id, 'gh')) ?? '', /^enc1:/);
        verify(WHSEC, (await ping(a.app, admin.token, hook.id, receiver)).request!);
        verify(WHSEC, (await ping(ctx.app, admin.token, hook.id, receiver)).request!);
        // A later start finds nothing to do.
        const c = await startInstance(ctx, {});
        await c.ready();
        await c.close();
        assert.equal(await webhookSecretRow(ctx, hook.id), sealed);
      } finally {
        await a.close();
        await b.close();
      }
    });
  },
  { env },
);

const K1 = EncryptionKey.generate().exportBase64();
const K2 = EncryptionKey.generate().exportBase64();
const K3 = EncryptionKey.generate().exportBase64();

describeEachDb(
  'secrets at rest, key rotation',
  (ctx) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(async () => receiver.close());

    it('CMS_ENCRYPTION_KEY is used, and no key file is made', async () => {
      assert.equal(ctx.config.encryptionKey?.id, EncryptionKey.parse(K1)?.id);
      assert.throws(() => statSync(keyFilePath(ctx.config.dataDir)));
    });

    it('a start with a new key and the old one as PREVIOUS opens and reseals old rows; a wrong key stops the start', async () => {
      const { project, admin } = await newProject(ctx.app);
      const hook = await createWebhook(ctx.app, admin.token, `${receiver.url}/rotate`, ['content.published']);
      await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload: { deployHooks: [{ id: 'gen', type: 'generic', url: `${receiver.url}/gen`, secret: WHSEC }] },
      });
      const k1 = EncryptionKey.parse(K1)!.id;
      const k2 = EncryptionKey.parse(K2)!.id;
      assert.ok((await webhookSecretRow(ctx, hook.id)).startsWith(`enc1:${k1}:`));

      // Without the old key, the new one cannot start on this database: the message says why.
      const wrong = await startInstance(ctx, { CMS_ENCRYPTION_KEY: K2 });
      try {
        await assert.rejects(wrong.ready(), (err: Error) => {
          assert.equal(err.name, 'SecretBoxError');
          assert.match(err.message, new RegExp(`key ids: ${k1}`));
          assert.match(err.message, /CMS_ENCRYPTION_KEY_PREVIOUS/);
          return true;
        });
      } finally {
        await wrong.close().catch(() => {});
      }
      assert.ok((await webhookSecretRow(ctx, hook.id)).startsWith(`enc1:${k1}:`), 'nothing was rewritten');

      const rotated = await startInstance(ctx, { CMS_ENCRYPTION_KEY: K2, CMS_ENCRYPTION_KEY_PREVIOUS: K1 });
      try {
        await rotated.ready();
        assert.ok((await webhookSecretRow(ctx, hook.id)).startsWith(`enc1:${k2}:`));
        assert.ok(((await deployHookSecretRow(ctx, project.id, 'gen')) ?? '').startsWith(`enc1:${k2}:`));
        verify(hook.secret, (await ping(rotated.app, admin.token, hook.id, receiver)).request!);

        // An instance still on the old key only (mid-rotation) sends nothing and says why; the
        // delivery stays on its retry schedule for an instance with the right key.
        const stale = startWorker({
          db: ctx.db,
          config: ctx.config,
          log: quietLog,
          secrets: createSecretBox(EncryptionKey.parse(K3)!),
        });
        try {
          const entry = await publishableEntry(ctx.app, project, admin.token);
          const seen = receiver.received.length;
          await entry.publish();
          const failed = await waitFor(
            async () => {
              const log = await call(ctx.app, {
                method: 'GET',
                url: `/v1/webhooks/${hook.id}/deliveries`,
                headers: bearer(admin.token),
              });
              return log.body.data.find(
                (d: { eventType: string; attemptCount: number }) =>
                  d.eventType === 'content.published' && d.attemptCount >= 1,
              );
            },
            15_000,
            'an attempt',
          );
          assert.match(failed.error, /signing secret cannot be decrypted/);
          assert.equal(receiver.received.slice(seen).filter((r) => r.url === '/rotate').length, 0);
        } finally {
          await stale.stop();
        }
      } finally {
        await rotated.close();
      }
    });
  },
  { env: { ...env, CMS_ENCRYPTION_KEY: K1 } },
);
