/**
 * `npm run bench:speed -w @folio/server` (issue 13): in one run, side by side on this machine,
 * - bare node:http sending precomputed bytes, and bare Fastify serialising the same page (bench/speed/*.mjs);
 * - Folio on SQLite and on PostgreSQL at the default configuration (LOG_LEVEL=info, worker in
 *   process) and with LOG_LEVEL=warn, to show what the access log costs;
 * in BENCH_ROUNDS rounds (default 3) of fresh processes, reporting medians of:
 * cold start (spawn to the first 200 of the visitor page), RSS 1 s after a 2 s warm-up and idle RSS
 * (BENCH_IDLE_SECONDS, default 60, after that warm-up: see idleRss),
 * the visitor page read (GET /v1/content/%2F with the publishable key, a 20-entry page of ~16 KB out
 * of 200 pages x 20 entries) at 50 connections, and snapshot revalidation (GET /v1/snapshot with
 * If-None-Match: 304). In a round every system runs at once and they take 1 s turns under load
 * (runRound), servers on CPU 1, the load generator on CPU 0; the order alternates baseline / Folio and
 * reverses every turn and round, and ratios are read between turns seconds apart, so the machine's
 * other load (helpers and CI share its two cores) and its drift fall on both sides alike. The load
 * average is written beside the figures.
 *
 * The content is written straight to the tables (bench/content/seed.ts), not through the API: the
 * same rows the API writes, in seconds instead of minutes. PostgreSQL: a scratch database on
 * BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 * BENCH_BASE_DIR (+ BENCH_BASE_LABEL): also run the server package built at another commit, at the
 * default level on both databases, for before/after figures in the same run (same migrations needed).
 * BENCH_DURATION: 1 s turns per system and scenario in a round (default 5). BENCH_WARMUP_SECONDS: seconds
 * of each of the two warm-up scenarios (default 1; the committed runs use the default). BENCH_ONLY: comma-separated parts of
 * system names to run only those (for a quick comparison while working; the table wants them all).
 * BENCH_PG_VARIANTS="label:KEY=value,KEY=value;label2:KEY=value": also Folio PostgreSQL at the default
 * level with that extra environment (e.g. `no worker:CMS_WORKER_ENABLED=false`,
 * `semi32:NODE_OPTIONS=--max-semi-space-size=32`), measured in the same turns as the rest. The key
 * NODE_ARGS passes flags on node's command line instead, for the V8 flags NODE_OPTIONS refuses
 * (`seed1:NODE_ARGS=--hash-seed=1`, `nopre:NODE_ARGS=--no-allocation-site-pretenuring --trace-gc`).
 * Writes bench/results/speed.json and speed.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedProject } from '../content/seed.js';
import { cpuMicros, freePort, nodeCommand, pinLoadGenerator, root } from '../lib/processes.js';
import { requireWrk, wrk } from '../lib/wrk.js';
import { type Figures, markdown, pairsOf, type Sample, summarise } from './report.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
/** Each scenario is measured in DURATION slices of this many seconds per system (see runRound). */
const SLICE_SECONDS = 1;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
/** Seconds of each warm-up scenario (page reads, then 304s) before a process is measured. */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
/** How long each process sits without a request before its idle RSS is read. */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const PAGE_PATH = '/v1/content/%2F';
/** BENCH_BASE_DIR: a server package built from another commit (its dist/), run beside this one. */
const BASE_DIR = process.env.BENCH_BASE_DIR;
const BASE_LABEL = process.env.BENCH_BASE_LABEL ?? 'base build';

interface System {
  name: string;
  args: string[];
  env: Record<string, string>;
  /** The publishable key its page and snapshot are read with (baselines ignore it). */
  key: string;
}

const load = () => loadavg().map((n) => Math.round(n * 100) / 100);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One GET; resolves with the status (and ETag), or null when nothing listens yet. */
function probe(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; etag?: string } | null> {
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag }));
    });
    req.on('error', () => resolve(null));
    req.end();
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

interface Running {
  child: ChildProcess;
  pid: number;
  url: string;
  key: Record<string, string>;
  snapHeaders: Record<string, string>;
  coldStartMs: number;
  coldStartCpuMs: number;
}

/** Spawns a system and waits for the first 200 of the visitor page (its cold start). */
async function start(system: System, logFile: string): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const key = { 'x-cms-key': system.key };
  const fd = openSync(logFile, 'a');
  const [command, args] = nodeCommand(system.args.map((a) => a.replace('{port}', String(port))));
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...system.env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  try {
    // Cold start: spawn to the first 200 of the visitor page, polled every 2 ms.
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${system.name} exited (log: ${logFile})`);
      if (performance.now() - started > 120_000) throw new Error(`${system.name} did not start`);
      const r = await probe(`${url}${PAGE_PATH}`, key);
      if (r?.status === 200) break;
      await sleep(2);
    }
    const coldStartMs = Math.round(performance.now() - started);
    // The CPU time the start took: unlike the wall time, hardly moved by other load on the machine.
    const coldStartCpuMs = Math.round(cpuMicros(child.pid as number) / 1000);
    const snap = await probe(`${url}/v1/snapshot`, key);
    if (snap?.status !== 200 || !snap.etag) throw new Error(`${system.name}: snapshot ${snap?.status}`);
    const snapHeaders = { ...key, 'if-none-match': snap.etag };
    return { child, pid: child.pid as number, url, key, snapHeaders, coldStartMs, coldStartCpuMs };
  } catch (err) {
    await stop(child);
    throw err;
  }
}

/** The warm-up every process gets before its memory is read: 1 s of page reads, 1 s of snapshot 304s. */
async function warmUp(s: Running): Promise<void> {
  await wrk({
    url: `${s.url}${PAGE_PATH}`,
    headers: s.key,
    connections: CONNECTIONS,
    durationSeconds: WARMUP_SECONDS,
  });
  await wrk({
    url: `${s.url}/v1/snapshot`,
    headers: s.snapHeaders,
    connections: CONNECTIONS,
    durationSeconds: WARMUP_SECONDS,
  });
}

/** SQLite systems get their own copy of the file: two Folio processes cannot share one (src/db/sqlite-lock.ts). */
function ownDatabase(system: System, dir: string, name: string): System {
  const url = system.env.DATABASE_URL;
  if (!url?.startsWith('sqlite:')) return system;
  const copy = join(dir, `${name}.sqlite`);
  copyFileSync(url.slice('sqlite:'.length), copy);
  return { ...system, env: { ...system.env, DATABASE_URL: `sqlite:${copy}` } };
}

interface SliceFigures {
  /** Which turn of the round it was measured in (a baseline measured twice in a turn has two). */
  slice: number;
  requests: number;
  seconds: number;
  latencyP99Ms: number;
  cpuMicros: number;
}

/**
 * One round: every system started (one at a time: its cold start), warmed up and left running, then
 * measured in SLICE_SECONDS slices, the systems taking turns in `order` (reversed every other slice),
 * DURATION slices per scenario. Why turns and not one process after another (as rounds 1-4 did): this
 * VM's speed drifts by up to 2x from one minute to the next, so two systems measured minutes apart
 * differ by more than the access log costs; measured in neighbouring seconds, the drift falls on both.
 * The report pairs each Folio slice with the same slice of its baseline (or of the LOG_LEVEL=warn twin).
 */
async function runRound(
  order: System[],
  dir: string,
  round: number,
  pageBytes: number,
): Promise<Map<string, Sample>> {
  const running = new Map<string, Running & { rssAfterLoadMb: number }>();
  try {
    for (const system of order) {
      if (running.has(system.name)) continue; // a baseline is measured twice per slice, started once
      const own = ownDatabase(system, dir, `round-${round}-${running.size}`);
      const s = await start(own, join(dir, `${system.name.replace(/\W+/g, '-')}.log`));
      running.set(system.name, { ...s, rssAfterLoadMb: 0 });
      await warmUp(s);
      await sleep(1000);
      (running.get(system.name) as { rssAfterLoadMb: number }).rssAfterLoadMb = rssMb(s.pid);
    }
    const slices = new Map<string, { page: SliceFigures[]; snapshot304: SliceFigures[] }>();
    for (const name of running.keys()) slices.set(name, { page: [], snapshot304: [] });
    const measure = async (name: string, scenario: 'page' | 'snapshot304', slice: number) => {
      const s = running.get(name) as Running;
      const [path, headers, status] =
        scenario === 'page' ? [PAGE_PATH, s.key, 200] : ['/v1/snapshot', s.snapHeaders, 304];
      const cpuBefore = cpuMicros(s.pid);
      const r = await wrk({
        url: `${s.url}${path}`,
        headers,
        connections: CONNECTIONS,
        durationSeconds: SLICE_SECONDS,
      });
      // wrk counts non-2xx/3xx as errors; the bytes per answer tell a 304 from a 200 with the page.
      const right = status === 200 ? r.bytesPerRequest > pageBytes : r.bytesPerRequest < 1000;
      if (r.errors || !right)
        throw new Error(`${name} ${path}: ${r.errors} errors, ${r.bytesPerRequest} bytes per answer`);
      (slices.get(name) as Record<typeof scenario, SliceFigures[]>)[scenario].push({
        slice,
        requests: r.requests,
        seconds: r.requests / r.requestsPerSec,
        latencyP99Ms: r.latencyP99Ms,
        cpuMicros: cpuMicros(s.pid) - cpuBefore,
      });
    };
    for (const scenario of ['page', 'snapshot304'] as const) {
      for (let slice = 0; slice < DURATION; slice++) {
        const turn = slice % 2 === 0 ? order : [...order].reverse();
        for (const system of turn) await measure(system.name, scenario, slice);
      }
    }
    const samples = new Map<string, Sample>();
    for (const [name, s] of running) {
      const { page, snapshot304 } = slices.get(name) as { page: SliceFigures[]; snapshot304: SliceFigures[] };
      const sample: Sample = {
        coldStartMs: s.coldStartMs,
        coldStartCpuMs: s.coldStartCpuMs,
        rssAfterLoadMb: s.rssAfterLoadMb,
        page: throughputOf(page),
        snapshot304: throughputOf(snapshot304),
        loadAverage: load(),
      };
      process.stdout.write(
        `${name}: ${JSON.stringify({ ...sample, page: { ...sample.page, slices: undefined, p99s: undefined }, snapshot304: { ...sample.snapshot304, slices: undefined, p99s: undefined } })}\n`,
      );
      samples.set(name, sample);
    }
    return samples;
  } finally {
    await Promise.all([...running.values()].map((s) => stop(s.child)));
  }
}

/** A system's figures over its slices; each turn's req/s is kept for the report's pairing. */
function throughputOf(slices: SliceFigures[]): Sample['page'] {
  const turns = Math.max(...slices.map((s) => s.slice)) + 1;
  const perTurn = Array.from({ length: turns }, (_, turn) => {
    const mine = slices.filter((s) => s.slice === turn);
    return Math.round(mine.reduce((n, s) => n + s.requests, 0) / mine.reduce((n, s) => n + s.seconds, 0));
  });
  const requests = slices.reduce((n, s) => n + s.requests, 0);
  const seconds = slices.reduce((n, s) => n + s.seconds, 0);
  const p99s = slices.map((s) => s.latencyP99Ms);
  const sorted = [...p99s].sort((a, b) => a - b);
  return {
    requestsPerSec: Math.round(requests / seconds),
    latencyP99Ms: sorted[Math.floor(sorted.length / 2)] as number,
    cpuMicrosPerRequest: Math.round(slices.reduce((n, s) => n + s.cpuMicros, 0) / Math.max(1, requests)),
    slices: perTurn,
    p99s,
  };
}

/**
 * Idle RSS: every system once, each IDLE_SECONDS after the same warm-up without a request. V8 gives
 * back the young generation it grew under load, and pages it freed, only after some idle time (15 to
 * 60 s here), so this is read apart from the throughput rounds: the processes start one after the
 * other and then sit idle side by side (idle, they do not disturb each other). Two Folio processes
 * cannot share one SQLite file (src/db/sqlite-lock.ts): each SQLite system runs on its own copy.
 */
async function idleRss(systems: System[], dir: string): Promise<Record<string, number>> {
  const running: Running[] = [];
  try {
    const readings: Promise<[string, number]>[] = [];
    for (const [i, system] of systems.entries()) {
      const s = await start(ownDatabase(system, dir, `idle-${i}`), join(dir, `idle-${i}.log`));
      running.push(s);
      await warmUp(s);
      readings.push(sleep(IDLE_SECONDS * 1000).then(() => [system.name, rssMb(s.pid)]));
    }
    return Object.fromEntries(await Promise.all(readings));
  } finally {
    await Promise.all(running.map((s) => stop(s.child)));
  }
}

async function main() {
  requireWrk();
  pinLoadGenerator();
  const loadAtStart = load();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-speed-'));
  const pgName = `folio_bench_speed_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${pgName}"`);
    const pgUrl = new URL(PG_URL);
    pgUrl.pathname = `/${pgName}`;
    const file = join(dir, 'cms.sqlite');
    const seed = async (config: Parameters<typeof openDatabase>[0]) => {
      const handle = await openDatabase(config);
      await migrateToLatest(handle.db);
      const project = await seedProject(handle.db, 'Speed bench', 200, 20);
      await handle.close();
      return project.apiKey;
    };
    const sqliteKey = await seed({ kind: 'sqlite', file });
    const pgKey = await seed({ kind: 'postgres', url: pgUrl.toString() });
    // The seed wrote 4,000 rows at once: without this, autovacuum and analyze run on them during the
    // first PostgreSQL measurements, on either core (PostgreSQL is not pinned), and take their time.
    const seeded = new pg.Client({ connectionString: pgUrl.toString() });
    await seeded.connect();
    await seeded.query('vacuum analyze');
    await seeded.query('checkpoint');
    await seeded.end();

    // The baselines send Folio's own page and ETags (read from a first Folio on SQLite).
    const folio = (database: string, level: string, key: string, at = root): System => ({
      name: `Folio ${database === file ? 'SQLite' : 'PostgreSQL'}, LOG_LEVEL=${level}${at === root ? '' : ` (${BASE_LABEL})`}`,
      args: [join(at, 'dist/server.js')],
      env: {
        DATABASE_URL: database === file ? `sqlite:${file}` : database,
        CMS_DATA_DIR: dir,
        LOG_LEVEL: level,
      },
      key,
    });
    const sqliteInfo = folio(file, 'info', sqliteKey);
    const { body, pageEtag, snapEtag } = await pageOf(sqliteInfo, join(dir, 'first.log'));
    writeFileSync(join(dir, 'page.json'), body);
    const baseline = (name: string, script: string): System => ({
      name,
      args: [join(root, 'bench/speed', script), '{port}', join(dir, 'page.json'), pageEtag, snapEtag],
      env: {},
      key: sqliteKey,
    });
    const bare = baseline('bare node:http, precomputed bytes', 'bare-http.mjs');
    const fastify = baseline('bare Fastify, serialising the page', 'bare-fastify.mjs');
    const pgInfo = folio(pgUrl.toString(), 'info', pgKey);
    // Baseline, Folio, baseline, Folio...; reversed every other round.
    const order = [bare, sqliteInfo, fastify, pgInfo, bare, folio(file, 'warn', sqliteKey), fastify];
    order.push(folio(pgUrl.toString(), 'warn', pgKey));
    // Before and after in one run: another build of the server package, at the default level.
    if (BASE_DIR)
      order.push(folio(file, 'info', sqliteKey, BASE_DIR), folio(pgUrl.toString(), 'info', pgKey, BASE_DIR));
    // One setting's effect, measured in the same turns as everything else (BENCH_PG_VARIANTS above).
    for (const variant of (process.env.BENCH_PG_VARIANTS ?? '').split(';').filter(Boolean)) {
      const [label = '', settings = ''] = variant.split(/:(.*)/s);
      const env: Record<string, string> = {};
      for (const setting of settings.split(',').filter(Boolean)) {
        const equals = setting.indexOf('=');
        if (equals < 1) throw new Error(`BENCH_PG_VARIANTS: "${setting}" is not KEY=value`);
        env[setting.slice(0, equals)] = setting.slice(equals + 1);
      }
      // NODE_ARGS: node's own flags, before the script (V8's flags are refused in NODE_OPTIONS).
      const { NODE_ARGS: nodeArgs = '', ...rest } = env;
      const base = folio(pgUrl.toString(), 'info', pgKey);
      order.push({
        ...base,
        name: `${base.name} (${label})`,
        args: [...nodeArgs.split(' ').filter(Boolean), ...base.args],
        env: { ...base.env, ...rest },
      });
    }
    const only = process.env.BENCH_ONLY?.split(',');
    if (only)
      order.splice(0, order.length, ...order.filter((s) => only.some((part) => s.name.includes(part))));
    const samples = new Map<string, Sample[]>();
    for (let round = 0; round < ROUNDS; round++) {
      const systems = round % 2 === 0 ? order : [...order].reverse();
      for (const [name, sample] of await runRound(systems, dir, round, body.length))
        samples.set(name, [...(samples.get(name) ?? []), sample]);
    }
    const unique = [...new Map(order.map((s) => [s.name, s])).values()];
    const idle = new Map<string, number[]>();
    for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
      for (const [name, mb] of Object.entries(await idleRss(unique, dir))) {
        idle.set(name, [...(idle.get(name) ?? []), mb]);
      }
    }
    const clientCeiling = await ceilingOf(bare);
    const figures: Figures = {
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? '', node: process.version },
      durationSeconds: DURATION,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      pageBytes: body.length,
      loadAverage: { start: loadAtStart, end: load() },
      systems: summarise(samples, idle),
      pairs: pairsOf(samples),
      idleSeconds: IDLE_SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      clientCeiling,
    };
    const md = markdown(figures);
    process.stdout.write(`\n${md}`);
    if (only) return; // a partial run is not the table
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(
      join(root, 'bench/results/speed.json'),
      `${JSON.stringify({ ...figures, samples: Object.fromEntries(samples), idleRssMb: Object.fromEntries(idle) }, null, 2)}\n`,
    );
    writeFileSync(join(root, 'bench/results/speed.md'), md);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Why wrk (bench/lib/wrk.ts): bare node:http's page read, driven by autocannon and by wrk from the
 * same core, one after the other on one process. Written beside the figures.
 */
async function ceilingOf(bare: System) {
  const port = await freePort();
  const [command, args] = nodeCommand(bare.args.map((a) => a.replace('{port}', String(port))));
  const child = spawn(command, args, { cwd: root, stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}${PAGE_PATH}`;
    while ((await probe(url, {}))?.status !== 200) await sleep(10);
    await wrk({ url, connections: CONNECTIONS, durationSeconds: 1 });
    const a: any = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
    const w = await wrk({ url, connections: CONNECTIONS, durationSeconds: DURATION });
    return { autocannonRequestsPerSec: Math.round(a.requests.average), wrkRequestsPerSec: w.requestsPerSec };
  } finally {
    await stop(child);
  }
}

/** Starts Folio once to read the page's bytes and the ETags the baselines answer with. */
async function pageOf(system: System, logFile: string) {
  const port = await freePort();
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, system.args, {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...system.env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  try {
    const url = `http://127.0.0.1:${port}`;
    const headers = { 'x-cms-key': system.key };
    for (let i = 0; (await probe(`${url}${PAGE_PATH}`, headers))?.status !== 200; i++) {
      if (i > 12000) throw new Error(`Folio did not start (log: ${logFile})`);
      await sleep(10);
    }
    const page = await fetch(`${url}${PAGE_PATH}`, { headers });
    const body = Buffer.from(await page.arrayBuffer());
    const snap = await fetch(`${url}/v1/snapshot`, { headers });
    await snap.arrayBuffer();
    return {
      body,
      pageEtag: page.headers.get('etag') as string,
      snapEtag: snap.headers.get('etag') as string,
    };
  } finally {
    await stop(child);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
