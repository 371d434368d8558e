import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, it } from 'node:test';
import pino from 'pino';
import { openDatabase } from '../../src/db/connect.js';
import { startWorker, type Worker } from '../../src/jobs/worker.js';
import { describeEachDb, type TestContext } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';
import { createWebhook, outboxSettled, publishableEntry, startReceiver, waitFor } from '../helpers/hooks.js';

interface Line {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A pino logger whose JSON lines land in `lines` (what an operator would read). */
function capturingLogger() {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of chunk.toString().split('\n')) if (text.trim()) lines.push(JSON.parse(text));
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

const WARN = 40;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// Issue 10, defect 12: failed deliveries were visible only through the API, and a database outage
// made the worker log a full stack every poll.
describeEachDb(
  'worker logs',
  (ctx) => {
    it('each failed webhook and deploy attempt is one warn line: host, status or error, attempt n of m', async () => {
      const { lines, log } = capturingLogger();
      const worker = startWorker({ db: ctx.db, config: ctx.config, log });
      const receiver = await startReceiver((_req, res) => res.writeHead(500).end('down'));
      try {
        const { project, admin } = await newProject(ctx.app);
        const port = await closedPort();
        const patched = await call(ctx.app, {
          method: 'PATCH',
          url: `/v1/projects/${project.id}`,
          headers: bearer(admin.token),
          payload: {
            deployHooks: [
              { id: 'site', type: 'generic', url: `http://127.0.0.1:${port}/build_hooks/SECRET1` },
            ],
          },
        });
        assert.equal(patched.status, 200);
        await createWebhook(ctx.app, admin.token, `${receiver.url}/hook?token=SECRET2`, [
          'content.published',
        ]);
        const entry = await publishableEntry(ctx.app, project, admin.token);
        await entry.publish();

        const failed = (job: string) => lines.filter((l) => l.level === WARN && l.job === job);
        await waitFor(
          () => failed('deliver-webhooks').length >= 3 && failed('call-deploy-hooks').length >= 3,
        );
        // Nothing more arrives: the schedule allows 3 attempts, and each row is now failed for good.
        await outboxSettled(ctx.db, project.id);

        const webhook = failed('deliver-webhooks');
        assert.deepEqual(
          webhook.map((l) => [l.attempt, l.of, l.status, l.target]),
          [1, 2, 3].map((n) => [n, 3, 500, new URL(receiver.url).host]),
        );
        assert.match(webhook[0]!.msg, /attempt 1 of 3 to 127\.0\.0\.1:\d+ failed: receiver answered 500/);

        const deploy = failed('call-deploy-hooks');
        assert.deepEqual(
          deploy.map((l) => [l.attempt, l.of, l.target]),
          [1, 2, 3].map((n) => [n, 3, `127.0.0.1:${port}`]),
        );
        assert.match(String(deploy[0]!.error), /ECONNREFUSED/);
        const all = JSON.stringify(lines);
        assert.ok(
          !all.includes('SECRET1') && !all.includes('SECRET2'),
          'URL paths and queries are not logged',
        );
      } finally {
        await worker.stop();
        await receiver.close();
      }
    });

    describeOutage(ctx);
  },
  {
    env: {
      CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
      CMS_WORKER_POLL_MS: '20',
      CMS_DEPLOY_DEBOUNCE_MS: '50',
      CMS_WEBHOOK_RETRY_SCHEDULE: '50,50',
      CMS_WEBHOOK_TIMEOUT_MS: '1000',
    },
  },
);

/**
 * A TCP proxy in front of PostgreSQL that can go down (connections reset, new ones refused) and
 * come back on the same port: a database outage as the worker's pool sees it.
 */
async function startProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const up = async () => {
    server = createServer((client) => {
      const upstream = createConnection(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      // One side gone ends the other, as a reset connection does: otherwise a pool client whose
      // upstream PostgreSQL dropped (the test database is dropped at the end) waits forever, and
      // so does the pool's end().
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as AddressInfo).port;
  };
  const down = async () => {
    const closed = new Promise<void>((resolve) => server?.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
    server = null;
  };
  await up();
  return { port: () => port, up, down };
}

function describeOutage(ctx: TestContext) {
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let worker: Worker | undefined;
  let handle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  before(async () => {
    if (ctx.database.config.kind !== 'postgres') return;
    proxy = await startProxy(new URL(ctx.database.config.url));
  });
  after(async () => {
    await worker?.stop();
    await handle?.close().catch(() => {});
    await proxy?.down().catch(() => {});
  });

  it('while the database is down the worker backs off and logs a line, not a stack per poll; then resumes', async (t) => {
    if (ctx.database.config.kind !== 'postgres' || !proxy)
      return t.skip('PostgreSQL only (needs a network to cut)');
    const url = new URL(ctx.database.config.url);
    url.host = `127.0.0.1:${proxy.port()}`;
    handle = await openDatabase({ kind: 'postgres', url: url.toString() });
    const { lines, log } = capturingLogger();
    const running = startWorker({ db: handle.db, config: ctx.config, log });
    worker = running;
    await waitFor(() => running.ticks.run >= 1, 15_000, 'a tick on the live database');

    await proxy.down();
    // Six failed ticks: an unguarded loop would have logged six stacks; backing off, they take ~1 s.
    const failedBefore = running.ticks.failed;
    await waitFor(() => running.ticks.failed >= failedBefore + 6, 15_000, 'six failed ticks');
    const during = lines.filter((l) => l.level >= WARN);
    assert.ok(during.length >= 1 && during.length <= 3, `${during.length} lines:\n${JSON.stringify(during)}`);
    assert.match(during[0]!.msg, /database unavailable/);
    assert.ok(!JSON.stringify(during).includes('"stack"'), 'no stack for an outage');

    await proxy.up();
    const receiver = await startReceiver();
    try {
      const { project, admin } = await newProject(ctx.app);
      await createWebhook(ctx.app, admin.token, `${receiver.url}/back`, ['content.published']);
      await (await publishableEntry(ctx.app, project, admin.token)).publish();
      await waitFor(() => receiver.received.length > 0, 15_000, 'a delivery after the outage');
    } finally {
      await receiver.close();
    }
    // The delivery can land while the tick that sent it is still running: wait for its line too.
    await waitFor(() => lines.some((l) => /database is back/.test(l.msg)), 5_000, 'the "back" line');
  });
}
