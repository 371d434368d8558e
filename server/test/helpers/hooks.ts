import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { startWorker, type Worker } from '../../src/jobs/worker.js';
import type { TestContext } from './app.js';
import { bearer, call } from './factories.js';

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
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Changes how the receiver answers from now on. */
    answer(next: Responder) {
      state.respond = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
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

/**
 * A nested suite with the worker running on the context's database (started after the app, stopped
 * before it closes: node:test runs a nested suite's `after` before its parent's).
 */
export function describeWithWorker(ctx: TestContext, name: string, body: () => void): void {
  describe(name, () => {
    let worker: Worker | undefined;
    before(() => {
      worker = startWorker({ db: ctx.db, config: ctx.config, log: quietLog });
    });
    after(async () => {
      await worker?.stop();
    });
    body();
  });
}
