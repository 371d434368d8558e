import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appendRouteHook } from './route-hooks.js';

/**
 * Request counts and latencies per route pattern, method and status, for /metrics
 * (`folio_http_requests_total`, `folio_http_request_duration_seconds`).
 *
 * The visitor read path must not get measurably slower, so recording costs two Map lookups, a few
 * additions and no allocation once a (route, method, status) has been seen:
 * - the route pattern is captured when the route is registered (a route-level onResponse hook, as
 *   the auth hook does), not read from `request.routeOptions` per request, which builds an options
 *   object on every call (src/http/route-hooks.ts);
 * - series are plain counters kept here and turned into Prometheus samples only at scrape time,
 *   instead of prom-client's `observe(labels, value)`, which hashes the label object into a new
 *   string on every call.
 * The histogram's own `_count` and the counter are one number; both are exported because dashboards
 * expect a `_total` counter for rates.
 */

/** Upper bounds in seconds: visitor reads take about a millisecond, uploads and snapshots longer. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** The route label of requests that matched no route (404s), so stray URLs cannot grow the series. */
export const UNMATCHED = 'unmatched';

interface Series {
  method: string;
  route: string;
  status: number;
  count: number;
  sum: number;
  /** Per bucket, not cumulative; observations past the last bound are only in `count`. */
  buckets: number[];
}

/** The series of one route pattern: method -> status -> series. */
export interface RouteSeries {
  readonly name: string;
  readonly byMethod: Map<string, Map<number, Series>>;
}

/** A sample in the shape prom-client's registry formats. */
interface Sample {
  value: number;
  labels: Record<string, string>;
  metricName?: string;
}

export class RequestSeries {
  private readonly routes = new Map<string, RouteSeries>();
  private readonly all: Series[] = [];

  /** The series of one route pattern; look it up once, at registration. */
  forRoute(name: string): RouteSeries {
    let route = this.routes.get(name);
    if (!route) {
      route = { name, byMethod: new Map() };
      this.routes.set(name, route);
    }
    return route;
  }

  observe(route: RouteSeries, method: string, status: number, seconds: number): void {
    record(this.seriesOf(route, method, status), seconds);
  }

  /**
   * What `observe` does for one fixed (route, method, status), without its two lookups: for a caller
   * that knows them in advance (the read fast path). The series is made on first use, as observe
   * makes it, so a series that never saw a request is not exported.
   */
  observer(route: RouteSeries, method: string, status: number): (seconds: number) => void {
    let series: Series | undefined;
    return (seconds) => {
      series ??= this.seriesOf(route, method, status);
      record(series, seconds);
    };
  }

  private seriesOf(route: RouteSeries, method: string, status: number): Series {
    let byStatus = route.byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      route.byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = { method, route: route.name, status, count: 0, sum: 0, buckets: LATENCY_BUCKETS.map(() => 0) };
      byStatus.set(status, series);
      this.all.push(series);
    }
    return series;
  }

  /** `folio_http_requests_total` samples. */
  countSamples(): Sample[] {
    return this.all.map((s) => ({ value: s.count, labels: labelsOf(s) }));
  }

  /** `folio_http_request_duration_seconds` samples: cumulative buckets, `+Inf`, sum and count. */
  histogramSamples(name: string): Sample[] {
    const out: Sample[] = [];
    for (const s of this.all) {
      const labels = labelsOf(s);
      let cumulative = 0;
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        cumulative += s.buckets[i] as number;
        out.push({
          value: cumulative,
          labels: { ...labels, le: String(LATENCY_BUCKETS[i]) },
          metricName: `${name}_bucket`,
        });
      }
      out.push({ value: s.count, labels: { ...labels, le: '+Inf' }, metricName: `${name}_bucket` });
      out.push({ value: s.sum, labels, metricName: `${name}_sum` });
      out.push({ value: s.count, labels, metricName: `${name}_count` });
    }
    return out;
  }
}

function record(series: Series, seconds: number): void {
  series.count += 1;
  series.sum += seconds;
  for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
    if (seconds <= (LATENCY_BUCKETS[i] as number)) {
      (series.buckets[i] as number)++;
      break;
    }
  }
}

const labelsOf = (s: Series) => ({ method: s.method, route: s.route, status: String(s.status) });

/**
 * Records every response of every route registered after this call (so call it before the routes),
 * and returns what the not-found handler calls for requests that matched none.
 */
export function installRequestMetrics(app: FastifyInstance, series: RequestSeries) {
  app.addHook('onRoute', (route) => {
    const ofRoute = series.forRoute(route.url);
    appendRouteHook(route, 'onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      series.observe(ofRoute, request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  });
  const unmatched = series.forRoute(UNMATCHED);
  return (request: FastifyRequest, reply: FastifyReply, status: number): void => {
    series.observe(unmatched, request.method, status, reply.elapsedTime / 1000);
  };
}
