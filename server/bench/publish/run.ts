/**
 * `npm run bench:publish`: the editor's write path, PATCH with `status: "published"`, through HTTP
 * against a real Folio process — this build and, when BENCH_BEFORE points at another build's
 * server package (a directory with `dist/server.js`), that one too, in the same run on the same machine, alternating.
 *
 * Issue 11 asked that the activity log and entry versions cost at most 10% of publish latency: run
 * with BENCH_BEFORE set to the server package of a build of the commit before them (3ede56b^).
 *
 * Scenarios, each on SQLite and PostgreSQL (a fresh database per server start):
 * - sequential: one editor publishing one entry with a new value, one request at a time
 *   (BENCH_REQUESTS, default 1,000): the latency an editor sees (p50, p99);
 * - parallel: ten editors publishing ten different entries for BENCH_DURATION seconds (autocannon,
 *   10 connections): throughput.
 * BENCH_ROUNDS (default 3) alternating rounds; each figure is the median of the rounds.
 * Writes bench/results/publish.json and publish.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { seedEditorsPage } from '../lib/editors.js';
import { cpuMicros, pinLoadGenerator, root, startFolio } from '../lib/processes.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EDITORS = 10;

interface Figures {
  build: string;
  db: 'sqlite' | 'postgres';
  sequentialP50Ms: number;
  sequentialP99Ms: number;
  sequentialMeanMs: number;
  /** Server CPU time per sequential publish: robust to other load on the machine. */
  sequentialCpuMicros: number;
  parallelRequestsPerSec: number;
  parallelCpuMicros: number;
  parallelP99Ms: number;
  errors: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function sequential(base: string, headers: Record<string, string>, id: string) {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 50; i++) {
    const body = JSON.stringify({
      fields: { title: `Title ${i}`, body: 'x'.repeat(200) },
      status: 'published',
    });
    const t = performance.now();
    const res = await fetch(`${base}/v1/content/${id}`, { method: 'PATCH', headers, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`PATCH ${res.status}`);
    if (i >= 50) times.push(performance.now() - t); // the first 50 warm up
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

async function parallel(base: string, headers: Record<string, string>, ids: string[]) {
  let n = 0;
  const requests = ids.map((id) => ({
    method: 'PATCH' as const,
    path: `/v1/content/${id}`,
    headers,
    setupRequest: (req: any) => ({
      ...req,
      body: JSON.stringify({ fields: { title: `T ${n++}` }, status: 'published' }),
    }),
  }));
  const r: any = await autocannon({ url: base, connections: EDITORS, duration: DURATION, requests });
  return {
    rps: Math.round(r.requests.average),
    p99: r.latency.p99,
    total: r.requests.total as number,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

async function runOnce(build: { name: string; at: string }, db: 'sqlite' | 'postgres', dir: string) {
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    CMS_DATA_DIR: mkdtempSync(join(dir, 'data-')),
    CMS_WORKER_ENABLED: 'false',
  };
  let dbName = '';
  const admin = new pg.Client({ connectionString: PG_URL });
  if (db === 'postgres') {
    dbName = `folio_bench_publish_${process.pid}_${Date.now()}`;
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  }
  const server = await startFolio(env, join(dir, `${build.name}-${db}.log`), build.at);
  try {
    const { headers, ids } = await seedEditorsPage(server.url, EDITORS, 'Publish bench');
    const pid = server.child.pid!;
    const cpu0 = cpuMicros(pid);
    const seq = await sequential(server.url, headers, ids[0]!);
    const cpu1 = cpuMicros(pid);
    const par = await parallel(server.url, headers, ids);
    const cpu2 = cpuMicros(pid);
    return {
      build: build.name,
      db,
      sequentialP50Ms: seq.p50,
      sequentialP99Ms: seq.p99,
      sequentialMeanMs: seq.mean,
      sequentialCpuMicros: Math.round((cpu1 - cpu0) / (REQUESTS + 50)),
      parallelRequestsPerSec: par.rps,
      parallelCpuMicros: Math.round((cpu2 - cpu1) / Math.max(1, par.total)),
      parallelP99Ms: par.p99,
      errors: par.errors,
    } satisfies Figures;
  } finally {
    await server.stop();
    if (db === 'postgres') {
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

async function main() {
  pinLoadGenerator();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-publish-'));
  const builds = [{ name: 'this build', at: root }];
  if (process.env.BENCH_BEFORE) builds.unshift({ name: 'before', at: process.env.BENCH_BEFORE });
  const rounds: Figures[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const db of ['sqlite', 'postgres'] as const) {
        for (const build of builds) {
          const figures = await runOnce(build, db, dir);
          process.stdout.write(`${JSON.stringify(figures)}\n`);
          rounds.push(figures);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const summary = builds.flatMap((build) =>
    (['sqlite', 'postgres'] as const).map((db) => {
      const mine = rounds.filter((r) => r.build === build.name && r.db === db);
      return {
        build: build.name,
        db,
        sequentialP50Ms: +median(mine.map((r) => r.sequentialP50Ms)).toFixed(2),
        sequentialP99Ms: +median(mine.map((r) => r.sequentialP99Ms)).toFixed(2),
        sequentialMeanMs: +median(mine.map((r) => r.sequentialMeanMs)).toFixed(2),
        sequentialCpuMicros: median(mine.map((r) => r.sequentialCpuMicros)),
        parallelCpuMicros: median(mine.map((r) => r.parallelCpuMicros)),
        parallelRequestsPerSec: median(mine.map((r) => r.parallelRequestsPerSec)),
        parallelP99Ms: median(mine.map((r) => r.parallelP99Ms)),
        errors: mine.reduce((a, r) => a + r.errors, 0),
      };
    }),
  );
  const out = join(root, 'bench/results');
  mkdirSync(out, { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    requests: REQUESTS,
    durationS: DURATION,
    rounds: ROUNDS,
    before: process.env.BENCH_BEFORE ?? null,
  };
  writeFileSync(join(out, 'publish.json'), `${JSON.stringify({ ...meta, summary, rounds }, null, 2)}\n`);
  const rows = summary.map(
    (s) =>
      `| ${s.build} | ${s.db} | ${s.sequentialP50Ms} | ${s.sequentialP99Ms} | ${s.sequentialMeanMs} | ${s.sequentialCpuMicros} | ${s.parallelRequestsPerSec} | ${s.parallelP99Ms} | ${s.parallelCpuMicros} | ${s.errors} |`,
  );
  const compare =
    builds.length === 2
      ? (['sqlite', 'postgres'] as const).map((db) => {
          const [a, b] = [
            summary.find((s) => s.build === 'before' && s.db === db)!,
            summary.find((s) => s.build === 'this build' && s.db === db)!,
          ];
          const pct = (x: number, y: number) => `${(((y - x) / x) * 100).toFixed(1)}%`;
          return `- ${db}: server CPU per publish ${pct(a.sequentialCpuMicros, b.sequentialCpuMicros)} (sequential), ${pct(a.parallelCpuMicros, b.parallelCpuMicros)} (parallel); sequential p50 ${pct(a.sequentialP50Ms, b.sequentialP50Ms)}, mean ${pct(a.sequentialMeanMs, b.sequentialMeanMs)}; parallel throughput ${pct(a.parallelRequestsPerSec, b.parallelRequestsPerSec)}`;
        })
      : [];
  writeFileSync(
    join(out, 'publish.md'),
    `# Publish latency (PATCH with status "published")\n\n${meta.date}; ${REQUESTS} sequential requests, then ${EDITORS} editors on ${EDITORS} entries for ${DURATION} s; median of ${ROUNDS} rounds.\n\n| build | database | sequential p50 ms | p99 ms | mean ms | server CPU µs per publish | parallel req/s | parallel p99 ms | server CPU µs per parallel publish | errors |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n${rows.join('\n')}\n${compare.length ? `\nChange from before:\n${compare.join('\n')}\n` : ''}`,
  );
  process.stdout.write(`wrote bench/results/publish.json and publish.md\n`);
}

await main();
