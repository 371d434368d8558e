/**
 * `npm run bench:webhooks`: what webhooks cost the publishing request, and how fast the worker sends.
 *
 * 1. Publish latency: autocannon on PATCH /v1/content/:entryId (status published, new fields each
 *    request) against a real Folio process, for a project with no webhooks and one with 20 webhooks
 *    subscribed to everything. The worker is off in that process, so the figure is the request's own
 *    cost (it only writes outbox rows); target: p99 with 20 webhooks within 1.2x of none. A bare
 *    node:http server sending the same bytes is measured in the same run as the floor.
 * 2. Deliveries/s: N publishes x 20 webhooks queued, then one in-process worker dispatches and
 *    delivers them all to a receiver in its own process; deliveries/s = deliveries / elapsed, fan-out
 *    included. Target: >= 2,000/s on one instance.
 *
 * SQLite always; PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (scratch database
 * created and dropped). Results: bench/results/webhooks.json and webhooks.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { startWorker } from '../../src/jobs/worker.js';
import { startFolio, startScript } from '../lib/processes.js';

const root = new URL('../..', import.meta.url).pathname;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 10;
const WEBHOOKS = 20;
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 500);
const PASSWORD = 'correct horse battery staple';

type Kind = 'sqlite' | 'postgres';

async function json(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const body = (await res.json()) as any;
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.data;
}

/** A project (admin signed in) with one synced entry, and `hooks` webhooks to `receiverUrl`. */
async function setupProject(base: string, hooks: number, receiverUrl: string) {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const { project } = await json(base, '/v1/projects', {
    method: 'POST',
    body: { name: 'Bench', admin: { email, password: PASSWORD } },
  });
  const { token } = await json(base, '/v1/auth/login', {
    method: 'POST',
    body: { email, password: PASSWORD },
  });
  const auth = { authorization: `Bearer ${token}`, 'x-cms-project-id': project.id };
  for (let i = 0; i < hooks; i++) {
    await json(base, '/v1/webhooks', {
      method: 'POST',
      headers: auth,
      body: { url: `${receiverUrl}/h${i}`, events: ['*'] },
    });
  }
  const pageId = '/bench';
  await json(base, '/v1/definitions/sync', {
    method: 'POST',
    headers: { 'x-cms-key': project.apiKey },
    body: {
      pageId,
      // One entry per connection: editors publish different entries. (All connections publishing one
      // entry would measure that row's lock queue, not what webhooks add to a publish.)
      components: Array.from({ length: CONNECTIONS }, (_, i) => ({
        componentId: 'Hero',
        instanceKey: `hero-${i}`,
        fields: [{ key: 'title', type: 'text' }],
      })),
    },
  });
  const entries = await json(base, `/v1/content/${encodeURIComponent(pageId)}`, {
    headers: { 'x-cms-key': project.apiKey, authorization: `Bearer ${token}` },
  });
  return { project, token, entryIds: (entries as { id: string }[]).map((e) => e.id) };
}

async function publishCannon(
  base: string,
  p: Awaited<ReturnType<typeof setupProject>>,
  duration = DURATION_S,
) {
  let n = 0;
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'PATCH',
        path: `/v1/content/${p.entryIds[0]}`,
        headers: {
          'content-type': 'application/json',
          'x-cms-key': p.project.apiKey,
          authorization: `Bearer ${p.token}`,
        },
        // Every request publishes new fields: an unchanged publish writes nothing.
        setupRequest: (req: any) => {
          const i = n++;
          return {
            ...req,
            path: `/v1/content/${p.entryIds[i % p.entryIds.length]}`,
            body: JSON.stringify({ fields: { title: `v${i}` }, status: 'published' }),
          };
        },
      },
    ],
  });
  return {
    requestsPerSec: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    non2xx: r.non2xx + r.errors,
  };
}

async function publishLatency(env: Record<string, string>) {
  const receiver = await startScript('bench/webhooks/receiver.ts', []);
  const logDir = mkdtempSync(join(tmpdir(), 'folio-bench-webhooks-'));
  const server = await startFolio(
    { ...env, CMS_WORKER_ENABLED: 'false', CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true', LOG_LEVEL: 'warn' },
    join(logDir, 'folio.log'),
  );
  try {
    const none = await setupProject(server.url, 0, receiver.url);
    const twenty = await setupProject(server.url, WEBHOOKS, receiver.url);
    const sample = await fetch(`${server.url}/v1/content/${none.entryIds[0]}`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        'x-cms-key': none.project.apiKey,
        authorization: `Bearer ${none.token}`,
      },
      body: JSON.stringify({ fields: { title: 'sample' }, status: 'published' }),
    });
    const bytes = Buffer.from(await sample.arrayBuffer());
    await publishCannon(server.url, none, 2); // warm-up (JIT, caches), not recorded
    const noWebhooks = await publishCannon(server.url, none);
    const withWebhooks = await publishCannon(server.url, twenty);
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(bytes));
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const barePort = (bare.address() as { port: number }).port;
    const floor = await autocannon({
      url: `http://127.0.0.1:${barePort}/`,
      method: 'PATCH',
      body: '{}',
      connections: CONNECTIONS,
      duration: DURATION_S,
    });
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    return {
      noWebhooks,
      withWebhooks,
      p99Ratio: Number((withWebhooks.latencyP99Ms / noWebhooks.latencyP99Ms).toFixed(2)),
      targetRatio: 1.2,
      met: withWebhooks.latencyP99Ms <= noWebhooks.latencyP99Ms * 1.2,
      bareNodeHttp: { requestsPerSec: Math.round(floor.requests.average), latencyP99Ms: floor.latency.p99 },
    };
  } finally {
    await server.stop();
    await receiver.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
}

async function deliveryThroughput(
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string },
  dataDir: string,
) {
  const receiver = await startScript('bench/webhooks/receiver.ts', []);
  const handle = await openDatabase(database);
  await migrateToLatest(handle.db);
  const env = {
    LOG_LEVEL: 'silent',
    CMS_DATA_DIR: dataDir,
    CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
    CMS_WORKER_POLL_MS: '10',
    CMS_WORKER_BATCH_SIZE: process.env.BENCH_BATCH ?? '200',
  };
  const config = loadConfig(env);
  const app = await buildApp({ config, database: handle });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const p = await setupProject(base, WEBHOOKS, receiver.url);
    for (let i = 0; i < PUBLISHES; i++) {
      await json(base, `/v1/content/${p.entryIds[i % p.entryIds.length]}`, {
        method: 'PATCH',
        headers: { 'x-cms-key': p.project.apiKey, authorization: `Bearer ${p.token}` },
        body: { fields: { title: `v${i}` }, status: 'published' },
      });
    }
    const total = PUBLISHES * WEBHOOKS;
    const started = performance.now();
    const worker = startWorker({
      db: handle.db,
      config,
      log: { info() {}, warn() {}, error: (o) => console.error(o) },
    });
    let done = 0;
    for (;;) {
      const row = await handle.db
        .selectFrom('webhookDeliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'succeeded')
        .executeTakeFirstOrThrow();
      done = Number(row.n);
      if (done >= total || performance.now() - started > 120_000) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const elapsedS = (performance.now() - started - config.workerPollMs) / 1000;
    await worker.stop();
    return {
      deliveries: total,
      succeeded: done,
      elapsedS: Number(elapsedS.toFixed(2)),
      deliveriesPerSec: Math.round(done / elapsedS),
      target: 2000,
      met: done / elapsedS >= 2000,
      batchSize: config.workerBatchSize,
    };
  } finally {
    await app.close();
    await handle.close();
    await receiver.stop();
  }
}

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    note: `Publish: autocannon ${CONNECTIONS} connections x ${DURATION_S}s per scenario, Folio in its own process with the worker off. Deliveries: ${PUBLISHES} publishes x ${WEBHOOKS} webhooks, worker in the bench process, receiver in its own process.`,
  };
  const kinds: [
    Kind,
    () => Promise<{
      env: Record<string, string>;
      database: any;
      dataDir: string;
      cleanup: () => Promise<void>;
    }>,
  ][] = [
    [
      'sqlite',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'folio-bench-webhooks-'));
        return {
          env: { CMS_DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'publish.sqlite')}` },
          database: { kind: 'sqlite', file: join(dir, 'deliver.sqlite') },
          dataDir: dir,
          cleanup: async () => rmSync(dir, { recursive: true, force: true }),
        };
      },
    ],
  ];
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    kinds.push([
      'postgres',
      async () => {
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        const names = [
          `folio_bench_wh_${randomBytes(3).toString('hex')}`,
          `folio_bench_wd_${randomBytes(3).toString('hex')}`,
        ];
        for (const n of names) await admin.query(`CREATE DATABASE "${n}"`);
        const urlOf = (n: string) => Object.assign(new URL(pgUrl), { pathname: `/${n}` }).toString();
        const dir = mkdtempSync(join(tmpdir(), 'folio-bench-webhooks-'));
        return {
          env: { CMS_DATA_DIR: dir, DATABASE_URL: urlOf(names[0]!) },
          database: { kind: 'postgres', url: urlOf(names[1]!) },
          dataDir: dir,
          cleanup: async () => {
            for (const n of names) await admin.query(`DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`);
            await admin.end();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    ]);
  } else results.postgres = 'skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL';

  for (const [kind, prepare] of kinds) {
    const ctx = await prepare();
    try {
      process.stdout.write(`${kind}: publish latency…\n`);
      const publish = await publishLatency(ctx.env);
      process.stdout.write(`${kind}: delivery throughput…\n`);
      const delivery = await deliveryThroughput(ctx.database, ctx.dataDir);
      results[kind] = { publish, delivery };
    } finally {
      await ctx.cleanup();
    }
  }

  const out = join(root, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'webhooks.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(out, 'webhooks.md'), markdown(results));
  process.stdout.write(markdown(results));
}

function markdown(results: Record<string, any>): string {
  const lines = [
    '# Webhooks bench',
    '',
    results.note,
    '',
    '| database | publish p99, no webhooks | publish p99, 20 webhooks | ratio (target <= 1.2) | publish req/s (none / 20) | bare node:http p99 | deliveries/s (target >= 2000) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const kind of ['sqlite', 'postgres']) {
    const r = results[kind];
    if (!r || typeof r === 'string') {
      lines.push(`| ${kind} | ${r ?? 'not run'} | | | | | |`);
      continue;
    }
    const { publish: p, delivery: d } = r;
    lines.push(
      `| ${kind} | ${p.noWebhooks.latencyP99Ms} ms | ${p.withWebhooks.latencyP99Ms} ms | ${p.p99Ratio} ${p.met ? '(met)' : '(NOT met)'} | ${p.noWebhooks.requestsPerSec} / ${p.withWebhooks.requestsPerSec} | ${p.bareNodeHttp.latencyP99Ms} ms | ${d.deliveriesPerSec} ${d.met ? '(met)' : '(NOT met)'} (${d.succeeded}/${d.deliveries} in ${d.elapsedS} s) |`,
    );
  }
  lines.push('', `Run ${results.date} on Node ${results.node}.`, '');
  return lines.join('\n');
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
