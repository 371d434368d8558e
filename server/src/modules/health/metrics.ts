import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import type { PoolStats } from '../../db/connect.js';
import type { RequestSeries } from '../../http/request-metrics.js';
import type { AttemptStatus } from '../../jobs/attempts.js';
import type { AttemptTable } from '../../jobs/types.js';
import { AppError } from '../../shared/errors.js';
import type { CacheCounts } from '../../shared/memo-cache.js';

/**
 * GET /metrics (Prometheus text format, prom-client). One registry per process role: the API
 * process (with its in-process worker) and the stand-alone worker each build one; nothing is a
 * module-level singleton, so tests build as many as they like.
 *
 * - Process: prom-client's default metrics (CPU, memory, GC, handles, event-loop lag as
 *   `nodejs_eventloop_lag_seconds` and its percentiles).
 * - Counted as things happen: HTTP requests (src/http/request-metrics.ts), webhook deliveries and
 *   deploy hook calls by outcome (the worker of this process).
 * - Read at scrape time, never on the request path: the outbox backlog (one indexed query), schedules
 *   due (when wired), open live streams, cache hits and misses, the database pool.
 * A source that fails at scrape time (the database is down) leaves its series out of that scrape and
 * counts `folio_metrics_source_errors_total{source}`; the rest of the scrape still answers.
 */
export interface MetricsSources {
  /** Connection pool use (counters of the driver, no query). */
  pool(): PoolStats;
  /** Outbox events not yet dispatched, and when the oldest was written. */
  outbox(): Promise<{ pending: number; oldestAt: string | null }>;
  /** Schedules whose time has come and that have not run (scheduled publishing, when it exists). */
  schedulesDue?: () => Promise<number>;
  /** Live streams open on this instance. */
  liveStreams?: () => number;
  /** Hits and misses of each in-memory cache, by cache name. */
  caches?: () => Record<string, CacheCounts>;
  /** Request counts and latencies (API process). */
  requests?: RequestSeries;
}

/** Attempt outcomes as labels: a failed attempt that will be retried is `retrying`. */
const OUTCOME: Record<AttemptStatus, string> = {
  succeeded: 'succeeded',
  pending: 'retrying',
  failed: 'failed',
};

/**
 * How often the event-loop lag histogram takes a sample. prom-client's default, 10 ms, is a timer
 * that woke every idle process 100 times a second: half of an idle instance's CPU (30 s idle: 0.42 s
 * of CPU at 10 ms, 0.22 s at 100 ms), and on a shared core each wake preempts whatever is serving.
 * At 100 ms the histogram still has 150 samples per 15 s scrape, and any stall longer than 100 ms is
 * measured in full; a shorter one is caught only in proportion to its length (the price of sleeping).
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics(now: () => number = Date.now) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const registers = [registry];

  const attempts: Record<AttemptTable, Counter<'outcome'>> = {
    webhookDeliveries: new Counter({
      name: 'folio_webhook_deliveries_total',
      help: 'Webhook delivery attempts made by the worker of this process, by outcome (retrying: failed, will be retried).',
      labelNames: ['outcome'],
      registers,
    }),
    deploys: new Counter({
      name: 'folio_deploys_total',
      help: 'Deploy hook calls made by the worker of this process, by outcome (retrying: failed, will be retried).',
      labelNames: ['outcome'],
      registers,
    }),
  };
  // Every outcome is exported from the start (at 0), so rate() and alerts see the series exist.
  for (const counter of Object.values(attempts)) {
    for (const outcome of Object.values(OUTCOME)) counter.inc({ outcome }, 0);
  }
  return {
    contentType: registry.contentType,
    render: (): Promise<string> => registry.metrics(),

    /** The worker's onOutcome (src/jobs/worker.ts). */
    recordOutcome(table: AttemptTable, status: AttemptStatus): void {
      attempts[table].inc({ outcome: OUTCOME[status] });
    },

    /** Registers the series read at scrape time; call once. */
    watch(sources: MetricsSources): void {
      // Query-backed gauges. A reading that fails leaves its gauge without a sample in that scrape
      // (prom-client's own Gauge would report 0 after a reset, which reads as "nothing pending") and
      // is counted by source; the error counter is registered last and waits for this scrape's readings.
      const failures = new Map<string, number>();
      const readings = new Set<Promise<unknown>>();
      const scraped = (name: string, help: string, source: string, read: () => Promise<number>) => {
        failures.set(source, failures.get(source) ?? 0);
        registry.registerMetric(
          sampled(name, help, 'gauge', () => {
            const reading = read().then(
              (value) => [{ value, labels: {} }],
              () => {
                failures.set(source, (failures.get(source) ?? 0) + 1);
                return [];
              },
            );
            readings.add(reading);
            void reading.then(() => readings.delete(reading));
            return reading;
          }),
        );
      };
      // Both outbox gauges come from one query per scrape: prom-client reads metrics concurrently,
      // so the second one joins the query the first started.
      let backlog: ReturnType<MetricsSources['outbox']> | null = null;
      const outbox = () => {
        backlog ??= sources.outbox().finally(() => {
          backlog = null;
        });
        return backlog;
      };
      scraped(
        'folio_outbox_pending',
        'Outbox events written and not yet dispatched to webhooks and deploy hooks.',
        'outbox',
        async () => (await outbox()).pending,
      );
      scraped(
        'folio_outbox_oldest_pending_age_seconds',
        'Age of the oldest outbox event not yet dispatched (0 when none is pending).',
        'outbox',
        async () => {
          const { oldestAt } = await outbox();
          return oldestAt ? Math.max(0, (now() - Date.parse(oldestAt)) / 1000) : 0;
        },
      );
      const { schedulesDue, liveStreams, caches, requests } = sources;
      if (schedulesDue) {
        scraped(
          'folio_schedules_due',
          'Scheduled publishes whose time has come and that have not run yet.',
          'schedules',
          schedulesDue,
        );
      }
      new Counter({
        name: 'folio_metrics_source_errors_total',
        help: 'Series that could not be read at scrape time (a database query failed), by source; they were left out of that scrape.',
        labelNames: ['source'],
        registers,
        async collect() {
          await Promise.all(readings);
          this.reset();
          for (const [source, count] of failures) this.inc({ source }, count);
        },
      });
      if (liveStreams) {
        new Gauge({
          name: 'folio_live_streams_open',
          help: 'Live update streams (GET /v1/live) open on this instance.',
          registers,
          collect() {
            this.set(liveStreams());
          },
        });
      }
      const waits = sources.pool().waiting !== undefined;
      new Gauge({
        name: 'folio_db_pool_connections',
        help: 'Database connections of this process: total open, and idle (PostgreSQL; SQLite has one connection).',
        labelNames: ['state'],
        registers,
        collect() {
          const stats = sources.pool();
          this.set({ state: 'total' }, stats.total);
          if (stats.idle !== undefined) this.set({ state: 'idle' }, stats.idle);
        },
      });
      if (waits) {
        new Gauge({
          name: 'folio_db_pool_waiting',
          help: 'Queries waiting for a free database connection (PostgreSQL pool).',
          registers,
          collect() {
            this.set(sources.pool().waiting ?? 0);
          },
        });
      }
      if (caches) {
        new Counter({
          name: 'folio_cache_lookups_total',
          help: 'Lookups of the in-memory caches (published pages, snapshot, objects, publishable keys, sites), by result.',
          labelNames: ['cache', 'result'],
          registers,
          collect() {
            this.reset();
            for (const [cache, counts] of Object.entries(caches())) {
              this.inc({ cache, result: 'hit' }, counts.hits);
              this.inc({ cache, result: 'miss' }, counts.misses);
            }
          },
        });
      }
      if (requests) {
        registry.registerMetric(
          sampled(
            'folio_http_requests_total',
            'HTTP requests answered, by method, route pattern and status.',
            'counter',
            () => requests.countSamples(),
          ),
        );
        const name = 'folio_http_request_duration_seconds';
        registry.registerMetric(
          sampled(
            name,
            'Time to answer HTTP requests, by method, route pattern and status.',
            'histogram',
            () => requests.histogramSamples(name),
          ),
        );
      }
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

interface Sample {
  value: number;
  labels: Record<string, string>;
  metricName?: string;
}

/**
 * A metric whose samples are computed at scrape time by `samples` (the request series keep their
 * own counters, see src/http/request-metrics.ts). It has the shape prom-client's registry reads
 * (name, help, type, get); prom-client's types list only its own classes, hence the cast.
 */
function sampled(
  name: string,
  help: string,
  type: 'counter' | 'gauge' | 'histogram',
  samples: () => Sample[] | Promise<Sample[]>,
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: await samples() }),
    reset: () => {},
  };
  return metric as unknown as Metric;
}

/**
 * Whether a request may read /metrics: always when no CMS_METRICS_TOKEN is set; otherwise only with
 * `Authorization: Bearer <token>`. Compared in constant time over SHA-256 digests (equal lengths
 * whatever was sent), so the answer's timing says nothing about how much of the token matched.
 */
export function metricsAuthorized(authorization: string | undefined, token: string | null): boolean {
  if (token === null) return true;
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  const sent = createHash('sha256')
    .update(match?.[1] ?? '')
    .digest();
  const expected = createHash('sha256').update(token).digest();
  return timingSafeEqual(sent, expected) && match !== null;
}

export const METRICS_UNAUTHORIZED = 'GET /metrics needs Authorization: Bearer <CMS_METRICS_TOKEN>.';

/** The 401 of /metrics without the token (the API's envelope; WWW-Authenticate names the scheme). */
export const metricsUnauthorized = () =>
  new AppError('unauthorized', 401, METRICS_UNAUTHORIZED, undefined, {
    'www-authenticate': 'Bearer realm="metrics"',
  });
