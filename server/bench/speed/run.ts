/**
 * `npm run bench:speed -w @folio/server` (issue 13): in one run, side by side on this machine,
 * - bare node:http sending precomputed bytes, and bare Fastify serialising the same page (bench/speed/*.mjs);
 * - Folio on SQLite and on PostgreSQL at the default configuration (LOG_LEVEL=info, worker in
 *   process) and with LOG_LEVEL=warn, to show what the access log costs;
 * each as BENCH_ROUNDS fresh processes (default 3), reporting medians of:
 * cold start (spawn to the first 200 of the visitor page), RSS 1 s after a 1 s warm-up and idle RSS
 * (BENCH_IDLE_SECONDS, default 60, after that warm-up: see idleRss),
 * the visitor page read (GET /v1/content/%2F with the publishable key, a 20-entry page of ~16 KB out
 * of 200 pages x 20 entries) at 50 connections, and snapshot revalidation (GET /v1/snapshot with
 * If-None-Match: 304). Servers run one at a time, on CPU 1, the load generator on CPU 0; the order
 * alternates baseline / Folio and reverses every round, so the machine's other load (helpers and CI
 * share its two cores) falls on both sides alike. The load average is written beside the figures.
 *
 * The content is written straight to the tables (bench/content/seed.ts), not through the API: the
 * same rows the API writes, in seconds instead of minutes. PostgreSQL: a scratch database on
 * BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 * BENCH_BASE_DIR (+ BENCH_BASE_LABEL): also run the server package built at another commit, at the
 * default level on both databases, for before/after figures in the same run (same migrations needed).
 * BENCH_DURATION: seconds per throughput scenario (default 5). BENCH_ONLY: comma-separated parts of
 * system names to run only those (for a quick comparison while working; the table wants them all).
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
import { type Figures, markdown, type Sample, summarise } from './report.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
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
  await wrk({ url: `${s.url}${PAGE_PATH}`, headers: s.key, connections: CONNECTIONS, durationSeconds: 1 });
  await wrk({
    url: `${s.url}/v1/snapshot`,
    headers: s.snapHeaders,
    connections: CONNECTIONS,
    durationSeconds: 1,
  });
}

async function run(system: System, logFile: string, pageBytes: number): Promise<Sample> {
  const s = await start(system, logFile);
  const { pid, url } = s;
  try {
    await warmUp(s);
    await sleep(1000);
    const rssAfterLoadMb = rssMb(pid);
    const measure = async (path: string, headers: Record<string, string>, status: number) => {
      const cpuBefore = cpuMicros(pid);
      const r = await wrk({
        url: `${url}${path}`,
        headers,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
      });
      // wrk counts non-2xx/3xx as errors; the bytes per answer tell a 304 from a 200 with the page.
      const right = status === 200 ? r.bytesPerRequest > pageBytes : r.bytesPerRequest < 1000;
      if (r.errors || !right)
        throw new Error(`${system.name} ${path}: ${r.errors} errors, ${r.bytesPerRequest} bytes per answer`);
      return {
        requestsPerSec: r.requestsPerSec,
        latencyP99Ms: r.latencyP99Ms,
        cpuMicrosPerRequest: Math.round((cpuMicros(pid) - cpuBefore) / Math.max(1, r.requests)),
      };
    };
    const page = await measure(PAGE_PATH, s.key, 200);
    const snapshot304 = await measure('/v1/snapshot', s.snapHeaders, 304);
    const { coldStartMs, coldStartCpuMs } = s;
    const sample = { coldStartMs, coldStartCpuMs, rssAfterLoadMb, page, snapshot304, loadAverage: load() };
    process.stdout.write(`${system.name}: ${JSON.stringify(sample)}\n`);
    return sample;
  } finally {
    await stop(s.child);
  }
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
      const url = system.env.DATABASE_URL;
      let env = system.env;
      if (url?.startsWith('sqlite:')) {
        const copy = join(dir, `idle-${i}.sqlite`);
        copyFileSync(url.slice('sqlite:'.length), copy);
        env = { ...env, DATABASE_URL: `sqlite:${copy}` };
      }
      const s = await start({ ...system, env }, join(dir, `idle-${i}.log`));
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
    const only = process.env.BENCH_ONLY?.split(',');
    if (only)
      order.splice(0, order.length, ...order.filter((s) => only.some((part) => s.name.includes(part))));
    const samples = new Map<string, Sample[]>();
    for (let round = 0; round < ROUNDS; round++) {
      const systems = round % 2 === 0 ? order : [...order].reverse();
      for (const system of systems) {
        const list = samples.get(system.name) ?? [];
        list.push(await run(system, join(dir, `${system.name.replace(/\W+/g, '-')}.log`), body.length));
        samples.set(system.name, list);
      }
    }
    const idle = new Map<string, number[]>();
    for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
      for (const [name, mb] of Object.entries(await idleRss(order, dir))) {
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
      idleSeconds: IDLE_SECONDS,
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
