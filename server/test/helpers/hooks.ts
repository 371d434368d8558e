import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/db/database.js';
import { startWorker, type Worker, type WorkerOptions } from '../../src/jobs/worker.js';
import type { TestContext } from './app.js';
import { bearer, call } from './factories.js';
import { trackRunning } from './leaks.js';

/** A request as a webhook receiver saw it. */
export interface Received {
  at: number;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers request number `n` (0-based); default 200 "ok". */
export type Responder = (req: Received, res: ServerResponse, n: number) => void;

/** A real local HTTP receiver (never a mock): records every request and answers via `respond`. */
export async function startReceiver(respond?: Responder) {
  const received: Received[] = [];
  const state = { respond: respond ?? ((_r: Received, res: ServerResponse) => res.end('ok')) };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        at: Date.now(),
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(entry);
      state.respond(entry, res, received.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const release = trackRunning(`webhook receiver on port ${port}`, stop);
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Changes how the receiver answers from now on. */
    answer(next: Responder) {
      state.respond = next;
    },
    async close() {
      await stop();
      release();
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). Not a timing assertion. */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the worker has dispatched every outbox event of the project and nothing they became
 * is still to be sent (no pending delivery, deploy trigger or deploy call): from then on, nothing
 * more arrives for what happened so far. "Receives nothing" tests wait for this instead of sleeping
 * and hoping the worker had its chance.
 */
export async function outboxSettled(db: Db, projectId: string, timeoutMs = 15_000): Promise<void> {
  const first = async (query: { executeTakeFirst(): Promise<unknown> }) =>
    (await query.executeTakeFirst()) !== undefined;
  await waitFor(
    async () => {
      const busy = await Promise.all([
        first(
          db
            .selectFrom('events')
            .select('id')
            .where('projectId', '=', projectId)
            .where('dispatchedAt', 'is', null),
        ),
        first(
          db
            .selectFrom('webhookDeliveries')
            .select('id')
            .where('projectId', '=', projectId)
            .where('status', '=', 'pending'),
        ),
        first(db.selectFrom('deployTriggers').select('projectId').where('projectId', '=', projectId)),
        first(
          db
            .selectFrom('deploys')
            .select('id')
            .where('projectId', '=', projectId)
            .where('status', '=', 'pending'),
        ),
      ]);
      return !busy.includes(true);
    },
    timeoutMs,
    'the outbox to be dispatched and sent',
  );
}

/** Creates a webhook through the API and returns it with its secret. */
export async function createWebhook(
  app: FastifyInstance,
  token: string,
  url: string,
  events: string[] = ['*'],
): Promise<{ id: string; secret: string; url: string; events: string[]; active: boolean }> {
  const res = await call(app, {
    method: 'POST',
    url: '/v1/webhooks',
    headers: bearer(token),
    payload: { url, events },
  });
  if (res.status !== 201)
    throw new Error(`webhook creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * A page with one component, synced with the site key; returns the stub entry's id and a
 * `publish()` that publishes a new version of it (each call changes the fields, so each is a publish).
 */
export async function publishableEntry(
  app: FastifyInstance,
  project: { apiKey: string },
  token: string,
  pageId = `/p-${randomBytes(3).toString('hex')}`,
) {
  const sync = await call(app, {
    method: 'POST',
    url: '/v1/definitions/sync',
    headers: { 'x-cms-key': project.apiKey },
    payload: {
      pageId,
      components: [{ componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] }],
    },
  });
  if (sync.status !== 200) throw new Error(`sync failed: ${sync.status} ${JSON.stringify(sync.body)}`);
  const page = await call(app, {
    method: 'GET',
    url: `/v1/content/${encodeURIComponent(pageId)}`,
    headers: { 'x-cms-key': project.apiKey, ...bearer(token) },
  });
  const entryId: string = page.body.data[0].id;
  let version = 0;
  return {
    entryId,
    pageId,
    async publish(): Promise<void> {
      version += 1;
      const res = await call(app, {
        method: 'PATCH',
        url: `/v1/content/${entryId}`,
        headers: { 'x-cms-key': project.apiKey, ...bearer(token) },
        payload: { fields: { title: `v${version}` }, status: 'published' },
      });
      if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${JSON.stringify(res.body)}`);
    },
  };
}

export const quietLog = {
  info() {},
  warn() {},
  error(obj: unknown, msg?: string) {
    process.stderr.write(
      `worker error: ${msg ?? ''} ${String((obj as { err?: Error })?.err?.stack ?? '')}\n`,
    );
  },
};

/** Starts the worker loop, registered with the leak check (stop it before the test or suite ends). */
export function startTestWorker(options: WorkerOptions): Worker {
  const worker = startWorker(options);
  const release = trackRunning('a worker', () => worker.stop());
  return {
    async stop() {
      await worker.stop();
      release();
    },
    ticks: worker.ticks,
  };
}

/**
 * A nested suite with the worker running on the context's database (started after the app, stopped
 * before it closes: node:test runs a nested suite's `after` before its parent's), with the app's
 * change bus as a server gives it (so scheduled publishing runs, and drops the app's caches).
 */
export function describeWithWorker(ctx: TestContext, name: string, body: () => void): void {
  describe(name, () => {
    let worker: Worker | undefined;
    before(() => {
      worker = startTestWorker({ db: ctx.db, config: ctx.config, log: quietLog, changes: ctx.app.changes });
    });
    after(async () => {
      await worker?.stop();
    });
    body();
  });
}
