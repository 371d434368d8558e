/**
 * `npm run bench:metrics`: what recording one request costs, in process, against the alternative
 * it replaced: prom-client's own Histogram.observe and Counter.inc with a labels object (the route
 * pattern, method and status), which hash the labels into a new string on every call. CPU time per
 * call is measured over millions of calls, so other load on the machine hardly moves it (unlike
 * throughput). The whole read path, side by side with the build before metrics: bench/compare.
 * Writes bench/results/metrics.json and metrics.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Counter, Histogram, Registry } from 'prom-client';
import { LATENCY_BUCKETS, RequestSeries } from '../../src/http/request-metrics.js';
import { root } from '../lib/processes.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 5_000_000);
const ROUNDS = 5;

/** CPU nanoseconds per call of `fn`, the median of ROUNDS rounds of CALLS calls. */
function nsPerCall(fn: (i: number) => void): number {
  for (let i = 0; i < 100_000; i++) fn(i); // warm-up (JIT)
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) fn(i);
    const used = process.cpuUsage(before);
    rounds.push(((used.user + used.system) * 1000) / CALLS);
  }
  rounds.sort((a, b) => a - b);
  return Math.round((rounds[Math.floor(ROUNDS / 2)] as number) * 10) / 10;
}

const ROUTE = '/v1/content/:pageId';
const seconds = (i: number) => 0.0004 + (i % 50) / 10_000; // 0.4 ms to 5.3 ms, across buckets

const series = new RequestSeries();
const route = series.forRoute(ROUTE);
const ours = nsPerCall((i) => series.observe(route, 'GET', i % 10 === 0 ? 304 : 200, seconds(i)));

const registry = new Registry();
const histogram = new Histogram({
  name: 'h',
  help: 'h',
  labelNames: ['method', 'route', 'status'],
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});
const counter = new Counter({
  name: 'c',
  help: 'c',
  labelNames: ['method', 'route', 'status'],
  registers: [registry],
});
const promClient = nsPerCall((i) => {
  const labels = { method: 'GET', route: ROUTE, status: i % 10 === 0 ? 304 : 200 };
  histogram.observe(labels, seconds(i));
  counter.inc(labels);
});

const summary = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
  calls: CALLS,
  rounds: ROUNDS,
  nsPerRequest: { requestSeries: ours, promClientHistogramAndCounter: promClient },
};
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/metrics.json'), `${JSON.stringify(summary, null, 2)}\n`);
const md = [
  '# Metrics bench',
  '',
  `${summary.machine.cpus} CPUs (${summary.machine.model}), Node ${summary.machine.node}; CPU time per call, the median of ${ROUNDS} rounds of ${CALLS.toLocaleString('en')} calls.`,
  '',
  '| recording one request (count + latency histogram) | CPU ns |',
  '|---|---:|',
  `| RequestSeries.observe (src/http/request-metrics.ts) | ${ours} |`,
  `| prom-client Histogram.observe + Counter.inc with a labels object | ${promClient} |`,
  '',
].join('\n');
writeFileSync(join(root, 'bench/results/metrics.md'), md);
process.stdout.write(md);
