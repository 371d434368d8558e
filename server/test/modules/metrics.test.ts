import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createMetrics, type Metrics } from '../../src/modules/health/metrics.js';
import { outboxBacklog } from '../../src/outbox/events.repository.js';
import { describeEachDb } from '../helpers/app.js';
import { heroEntry, newSite, pageUrl, patchEntry } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { createWebhook, quietLog, startReceiver, startTestWorker, waitFor } from '../helpers/hooks.js';
import { startServerProcess } from '../helpers/process.js';
import { openLive } from '../helpers/sse.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text (the subset prom-client writes: no escaped quotes in our label values). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="([^"]*)"/g)) {
      labels[key as string] = value as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

async function scrape(base: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/metrics`, { headers });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return parse(await res.text());
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// An instance with its own metrics (as src/server.ts builds it, shared with its worker) on the suite's
// database, listening: the revalidation fast path and live streams need a real server.
describeEachDb(
  'metrics',
  (ctx) => {
    let app: FastifyInstance;
    let handle: DatabaseHandle;
    let metrics: Metrics;
    let base = '';
    before(async () => {
      handle = await openDatabase(ctx.database.config);
      metrics = createMetrics();
      app = await buildApp({ config: ctx.config, database: handle, metrics });
      base = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await app.close();
      await handle.close();
    });

    it('counts requests per route pattern, method and status, with latency histograms; 404s as unmatched', async () => {
      const site = await newSite(app);
      const id = await heroEntry(app, site);
      await patchEntry(app, site, id, { fields: { title: 'Hello' }, status: 'published' });
      const route = { method: 'GET', route: '/v1/content/:pageId' };
      const before = await scrape(base);
      const page = await fetch(`${base}${pageUrl('/')}`, { headers: site.key });
      assert.equal(page.status, 200);
      await page.arrayBuffer();
      // Answered by the revalidation fast path, before Fastify: counted under the same route.
      const etag = page.headers.get('etag') as string;
      // Twice, so that a 304 counted as a 200 (or the reverse) changes the totals below.
      for (let i = 0; i < 2; i++) {
        const again = await fetch(`${base}${pageUrl('/')}`, {
          headers: { ...site.key, 'if-none-match': etag },
        });
        assert.equal(again.status, 304);
      }
      // The page is cached now: its next 200 is the fast path's own, counted apart from its 304s.
      const cached = await fetch(`${base}${pageUrl('/')}`, { headers: site.key });
      assert.equal(cached.status, 200);
      await cached.arrayBuffer();
      // The snapshot's 304 comes from the fast path too, under the snapshot route.
      const snapshot = await fetch(`${base}/v1/snapshot`, { headers: site.key });
      assert.equal(snapshot.status, 200);
      await snapshot.arrayBuffer();
      const snapshotAgain = await fetch(`${base}/v1/snapshot`, {
        headers: { ...site.key, 'if-none-match': snapshot.headers.get('etag') as string },
      });
      assert.equal(snapshotAgain.status, 304);
      assert.equal((await fetch(`${base}/no/such/route`)).status, 404);

      const samples = await scrape(base);
      const count = (s: Sample[], status: string) =>
        value(s, 'folio_http_requests_total', { ...route, status }) ?? 0;
      assert.equal(count(samples, '200') - count(before, '200'), 2);
      assert.equal(count(samples, '304') - count(before, '304'), 2);
      const snapshots = (s: Sample[], status: string) =>
        value(s, 'folio_http_requests_total', { method: 'GET', route: '/v1/snapshot', status }) ?? 0;
      assert.equal(snapshots(samples, '200') - snapshots(before, '200'), 1);
      assert.equal(snapshots(samples, '304') - snapshots(before, '304'), 1);
      assert.equal(
        value(samples, 'folio_http_request_duration_seconds_count', {
          method: 'GET',
          route: '/v1/snapshot',
          status: '304',
        }),
        snapshots(samples, '304'),
        'the fast path feeds the histogram as well as the counter',
      );
      const patch = { method: 'PATCH', route: '/v1/content/:entryId', status: '200' };
      assert.equal(value(samples, 'folio_http_requests_total', patch), 1);
      assert.equal(value(samples, 'folio_http_request_duration_seconds_count', patch), 1);
      assert.equal(value(samples, 'folio_http_request_duration_seconds_bucket', { ...patch, le: '+Inf' }), 1);
      assert.ok((value(samples, 'folio_http_request_duration_seconds_sum', patch) ?? 0) > 0);
      assert.equal(
        value(samples, 'folio_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
        1,
      );
      // Raw URLs never become labels.
      assert.ok(!samples.some((s) => s.labels.route?.includes('%2F') || s.labels.route === '/no/such/route'));
    });

    it('counts cache hits and misses, open live streams and the connection pool', async () => {
      const site = await newSite(app);
      const id = await heroEntry(app, site, '/cached');
      await patchEntry(app, site, id, { fields: { title: 'Cached' }, status: 'published' });
      const before = await scrape(base);
      const hits = (s: Sample[]) =>
        value(s, 'folio_cache_lookups_total', { cache: 'pages', result: 'hit' }) ?? 0;
      const misses = (s: Sample[]) =>
        value(s, 'folio_cache_lookups_total', { cache: 'pages', result: 'miss' }) ?? 0;
      for (let i = 0; i < 3; i++) {
        const res = await call(app, { method: 'GET', url: pageUrl('/cached'), headers: site.key });
        assert.equal(res.status, 200);
      }
      const live = await openLive(base, '/cached', site.key);
      try {
        assert.equal(live.status, 200);
        const during = await scrape(base);
        assert.equal(misses(during) - misses(before), 1, 'the first read loads the page');
        assert.equal(hits(during) - hits(before), 2, 'the next two are served from memory');
        assert.ok(
          (value(during, 'folio_cache_lookups_total', { cache: 'site_key', result: 'hit' }) ?? 0) > 0,
        );
        for (const cache of ['site_project', 'snapshot', 'objects']) {
          assert.notEqual(value(during, 'folio_cache_lookups_total', { cache, result: 'miss' }), undefined);
        }
        assert.equal(value(during, 'folio_live_streams_open'), 1);
      } finally {
        live.close();
      }
      await waitFor(
        async () => value(await scrape(base), 'folio_live_streams_open') === 0,
        5000,
        'the stream to close',
      );

      const samples = await scrape(base);
      assert.ok((value(samples, 'folio_db_pool_connections', { state: 'total' }) ?? 0) >= 1);
      if (ctx.kind === 'postgres') {
        assert.notEqual(value(samples, 'folio_db_pool_connections', { state: 'idle' }), undefined);
        assert.notEqual(value(samples, 'folio_db_pool_waiting'), undefined);
      } else {
        assert.equal(value(samples, 'folio_db_pool_connections', { state: 'total' }), 1);
      }
      // prom-client's default process metrics, event-loop lag among them.
      assert.notEqual(value(samples, 'nodejs_eventloop_lag_seconds'), undefined);
      assert.notEqual(value(samples, 'nodejs_eventloop_lag_p99_seconds'), undefined);
      assert.notEqual(value(samples, 'process_cpu_user_seconds_total'), undefined);
    });

    it('reports the outbox backlog, then webhook deliveries and deploy calls by outcome', async () => {
      const site = await newSite(app);
      const ok = await startReceiver();
      const failing = await startReceiver((_req, res) => {
        res.statusCode = 500;
        res.end('down');
      });
      let worker: ReturnType<typeof startTestWorker> | undefined;
      try {
        await createWebhook(app, site.admin.token, ok.url, ['content.published']);
        const hooks = await call(app, {
          method: 'PATCH',
          url: `/v1/projects/${site.project.id}`,
          headers: bearer(site.admin.token),
          payload: { deployHooks: [{ id: 'build', type: 'generic', url: failing.url }] },
        });
        assert.equal(hooks.status, 200, JSON.stringify(hooks.body));
        const id = await heroEntry(app, site, '/outbox');
        await patchEntry(app, site, id, { fields: { title: 'Out' }, status: 'published' });

        // No worker yet: the event waits in the outbox.
        const waiting = await scrape(base);
        assert.ok((value(waiting, 'folio_outbox_pending') ?? 0) >= 1);
        assert.ok((value(waiting, 'folio_outbox_oldest_pending_age_seconds') ?? -1) >= 0);
        for (const outcome of ['succeeded', 'retrying', 'failed']) {
          assert.equal(value(waiting, 'folio_webhook_deliveries_total', { outcome }), 0);
          assert.equal(value(waiting, 'folio_deploys_total', { outcome }), 0);
        }

        worker = startTestWorker({
          db: handle.db,
          config: { ...ctx.config, workerPollMs: 20 },
          log: quietLog,
          onOutcome: metrics.recordOutcome,
        });
        const sent = (await waitFor(
          async () => {
            const s = await scrape(base);
            const delivered = value(s, 'folio_webhook_deliveries_total', { outcome: 'succeeded' }) ?? 0;
            const retrying = value(s, 'folio_deploys_total', { outcome: 'retrying' }) ?? 0;
            return delivered >= 1 && retrying >= 1 ? s : null;
          },
          15_000,
          'a delivery and a failed deploy call to be counted',
        )) as Sample[];
        assert.equal(value(sent, 'folio_outbox_pending'), 0);
        assert.equal(value(sent, 'folio_outbox_oldest_pending_age_seconds'), 0);
      } finally {
        await worker?.stop();
        await ok.close();
        await failing.close();
      }
    });

    it('the outbox backlog is read from the pending index', async () => {
      if (ctx.kind === 'sqlite') {
        const { rows } = await sql<{ detail: string }>`explain query plan
          select (select count(*) from events where dispatched_at is null),
                 (select created_at from events where dispatched_at is null order by dispatched_at, id limit 1)`.execute(
          handle.db,
        );
        const plan = rows.map((r) => r.detail).join('\n');
        assert.match(plan, /events_pending_idx/);
        assert.doesNotMatch(plan, /SCAN events\b(?! USING)/);
      }
      // The repository's statement itself answers on both dialects.
      assert.deepEqual(Object.keys(await outboxBacklog(handle.db)).sort(), ['oldestAt', 'pending']);
    });
  },
  {
    env: {
      CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
      CMS_DEPLOY_DEBOUNCE_MS: '0',
      CMS_WEBHOOK_RETRY_SCHEDULE: '600000',
    },
  },
);

describeEachDb('metrics without a database', (ctx) => {
  it('a scrape still answers when the database is down: its series are left out and counted', async () => {
    // PostgreSQL on a port nothing listens on; SQLite: a migrated file whose connection is closed.
    const database =
      ctx.kind === 'postgres'
        ? await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/nowhere' })
        : await openDatabase({ kind: 'sqlite', file: join(ctx.config.dataDir, 'closed.sqlite') });
    if (ctx.kind === 'sqlite') await migrateToLatest(database.db);
    const app = await buildApp({ config: ctx.config, database });
    try {
      await app.ready();
      if (ctx.kind === 'sqlite') await database.close();
      const res = await app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(res.statusCode, 200);
      const samples = parse(res.body);
      assert.equal(value(samples, 'folio_outbox_pending'), undefined);
      assert.equal(value(samples, 'folio_metrics_source_errors_total', { source: 'outbox' }), 2);
      assert.notEqual(value(samples, 'folio_db_pool_connections', { state: 'total' }), undefined);
    } finally {
      await app.close();
      await database.close().catch(() => {});
    }
  });
});

const TOKEN = 'metrics-token-0123456789';

describeEachDb(
  'metrics token',
  (ctx) => {
    it('with CMS_METRICS_TOKEN, /metrics needs it as a Bearer token (401 in the envelope otherwise)', async () => {
      for (const headers of [{}, bearer('wrong'), bearer(`${TOKEN}x`), { authorization: TOKEN }]) {
        const res = await call(ctx.app, { method: 'GET', url: '/metrics', headers });
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, {
          data: null,
          error: {
            code: 'unauthorized',
            message: 'GET /metrics needs Authorization: Bearer <CMS_METRICS_TOKEN>.',
          },
        });
        assert.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
      }
      const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /^folio_http_requests_total\{method="GET",route="\/metrics",status="401"\} 4$/m);
      // Health stays open to load balancers.
      assert.equal((await call(ctx.app, { method: 'GET', url: '/health' })).status, 200);
      assert.equal((await call(ctx.app, { method: 'GET', url: '/health/ready' })).status, 200);
    });

    it('/metrics is not in the OpenAPI document; /health/ready is', async () => {
      const doc = (await call(ctx.app, { method: 'GET', url: '/v1/openapi.json' })).body;
      assert.equal(doc.paths['/metrics'], undefined);
      assert.equal(doc.paths['/health/ready'].get.operationId, 'getReadiness');
    });
  },
  { env: { CMS_METRICS_TOKEN: TOKEN } },
);

describeEachDb('worker port', (ctx) => {
  it('the stand-alone worker serves /health, /health/ready and /metrics on CMS_WORKER_PORT', async () => {
    const config = ctx.database.config;
    const port = await freePort();
    const worker = await startServerProcess(
      {
        DATABASE_URL: config.kind === 'postgres' ? config.url : `sqlite:${config.file}`,
        CMS_DATA_DIR: ctx.config.dataDir,
        CMS_WORKER_PORT: String(port),
        CMS_METRICS_TOKEN: TOKEN,
        LOG_LEVEL: 'info',
      },
      'src/worker.ts',
    );
    try {
      assert.equal(worker.url, `http://127.0.0.1:${port}`);
      const health = await fetch(`${worker.url}/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok', version: ctx.config.version });
      const ready = await fetch(`${worker.url}/health/ready`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), {
        data: { status: 'ready', version: ctx.config.version, checks: { database: 'ok', migrations: 'ok' } },
        error: null,
      });

      const refused = await fetch(`${worker.url}/metrics`);
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'unauthorized');
      const samples = await scrape(worker.url, bearer(TOKEN));
      assert.equal(value(samples, 'folio_webhook_deliveries_total', { outcome: 'succeeded' }), 0);
      assert.equal(value(samples, 'folio_deploys_total', { outcome: 'failed' }), 0);
      assert.notEqual(value(samples, 'folio_outbox_pending'), undefined);
      assert.ok((value(samples, 'folio_db_pool_connections', { state: 'total' }) ?? 0) >= 1);
      assert.notEqual(value(samples, 'nodejs_eventloop_lag_seconds'), undefined);
      // No API in this process: no request, cache or live series.
      assert.equal(samples.filter((s) => s.name.startsWith('folio_http_')).length, 0);

      const unknown = await fetch(`${worker.url}/v1/projects`);
      assert.equal(unknown.status, 404);
      assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'not_found');
    } finally {
      worker.child.kill('SIGTERM');
      assert.equal(await worker.exited, 0);
    }
  });
});
