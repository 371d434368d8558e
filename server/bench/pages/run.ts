/**
 * `npm run bench:pages`: a project of PAGES pages (default 20,000) × PAGES_ENTRIES entries (default
 * 10, ~700 bytes of published fields each, bench/content/seed.ts), and what issue 34 asks of it:
 * - `GET /v1/pages?q=` latency (target < 50 ms), over HTTP against the server, for a search that
 *   matches one page, one that matches most (answering the first 1,000), one that matches none (the
 *   whole pages table read) and the plain list; beside each, bare node:http sending the same bytes;
 * - the statements behind it run straight on the database, with their plans (bench/pages/probe.ts);
 * - the snapshot's build time (the first GET /v1/snapshot of a fresh server) and the server's peak
 *   RSS (VmHWM) before and after it, beside bare node:http sending the same snapshot;
 * - `folio bake` (the CLI, packages/cli/dist when built, else its source under tsx) against a fresh
 *   server (the snapshot built for it), against the same server again (cached), and against bare
 *   node:http (the floor: the CLI reading, parsing and writing the file).
 * Baselines are described in bench/pages/README.md. SQLite in a temporary directory;
 * BENCH_DATABASE_URL=postgres://… for PostgreSQL (the bench creates and drops its own database).
 * The server runs from source (node --import tsx src/server.ts), so no build is needed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedProject } from '../content/seed.js';
import {
  freePort,
  nodeCommand,
  pinLoadGenerator,
  root,
  type Started,
  startScript,
} from '../lib/processes.js';
import { analyze, probeStatements } from './probe.js';

const PAGES = Number(process.env.PAGES ?? 20_000);
const PER_PAGE = Number(process.env.PAGES_ENTRIES ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const TARGET_MS = 50;
const repository = join(root, '..');

const ms = (v: number) => `${v.toFixed(1)} ms`;
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;

/** Peak resident set size of a process so far (Linux /proc), in kB. */
function peakRssKb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0);
}

/** The server from source, on its own CPU when the machine has two (bench/lib/processes.ts). */
async function startServer(env: Record<string, string>, log: string): Promise<Started> {
  const port = await freePort();
  const [command, args] = nodeCommand(['--import', 'tsx', join(root, 'src/server.ts')]);
  const child: ChildProcess = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), CMS_WORKER_ENABLED: 'false' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors = (errors + chunk).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${log}): ${errors}`);
    if (Date.now() > deadline) throw new Error(`the server did not start: ${errors}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { child, url, stop };
}

/** Wall times of `count` sequential GETs after three warm-ups, and the last answer's bytes. */
async function timeGets(url: string, headers: Record<string, string>, count: number) {
  let body = Buffer.alloc(0);
  const get = async () => {
    const res = await fetch(url, { headers });
    body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.toString().slice(0, 300)}`);
  };
  for (let i = 0; i < 3; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await get();
    times.push(performance.now() - t0);
  }
  return { median: median(times), slowest: Math.max(...times), body };
}

/** `folio bake` as a build runs it: its own process, wall time from spawn to exit. */
function bake(url: string, key: string, out: string): number {
  const built = join(repository, 'packages/cli/dist/bin.js');
  const args = existsSync(built) ? [built] : ['--import', 'tsx', join(repository, 'packages/cli/src/bin.ts')];
  const t0 = performance.now();
  const run = spawnSync(process.execPath, [...args, 'bake', '--url', url, '--key', key, '--out', out], {
    encoding: 'utf8',
  });
  const elapsed = performance.now() - t0;
  if (run.status !== 0 || !run.stderr.startsWith('Baked')) throw new Error(`bake failed: ${run.stderr}`);
  return elapsed;
}

async function main() {
  pinLoadGenerator();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-pages-'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const dbName = `folio_bench_pages_${process.pid}`;
  let databaseUrl = `sqlite:${join(dir, 'cms.sqlite')}`;
  if (pgUrl) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const dialect = pgUrl ? 'postgres' : 'sqlite';
  const env = {
    DATABASE_URL: databaseUrl,
    CMS_DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    CMS_MAX_PAGES_PER_PROJECT: String(Math.max(PAGES, 20_000)),
  };
  const handle = await openDatabase(loadConfig(env).database);
  const servers: Started[] = [];
  const report: string[] = [];
  const line = (text: string) => {
    report.push(text);
    process.stdout.write(`${text}\n`);
  };
  try {
    await migrateToLatest(handle.db);
    let t0 = performance.now();
    const project = await seedProject(handle.db, 'Pages bench', PAGES, PER_PAGE);
    await analyze(handle.db);
    line(
      `# bench:pages, ${dialect}: ${PAGES} pages x ${PER_PAGE} entries (${PAGES * PER_PAGE} entries, all published), seeded in ${ms(performance.now() - t0)}`,
    );
    line(
      `${new Date().toISOString()}, Node ${process.version}, ${REQUESTS} requests per figure (median, slowest)\n`,
    );

    const last = PAGES - 1;
    const queries = [
      { name: 'q matching one page', q: `pages/${last}` },
      { name: 'q matching most pages (first 1,000 answered)', q: 'PAGES/1' },
      { name: 'q matching none (every page row read)', q: 'no-such-page' },
      { name: 'no q (first 1,000 pages)', q: '' },
    ];
    line('## The statements, straight on the database\n');
    for (const text of await probeStatements(handle.db, project.id, queries)) line(text);

    let folio = await startServer(env, 'first');
    servers.push(folio);
    const login = await fetch(`${folio.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(project.admin),
    });
    const token: string = ((await login.json()) as { data: { token: string } }).data.token;
    const session = { authorization: `Bearer ${token}` };

    // The snapshot first, on the fresh server: its first request builds it.
    const rssBefore = peakRssKb(folio.child.pid!);
    t0 = performance.now();
    const snapshotRes = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': project.apiKey } });
    const snapshot = Buffer.from(await snapshotRes.arrayBuffer());
    const coldSnapshot = performance.now() - t0;
    const rssAfter = peakRssKb(folio.child.pid!);
    // fetch asks for gzip and decompresses: the bytes on the wire are the stored ones.
    const wireBytes = Number(snapshotRes.headers.get('content-length') ?? snapshot.length);
    const encoding = snapshotRes.headers.get('content-encoding') ?? 'identity';
    const warmSnapshot = await timeGets(`${folio.url}/v1/snapshot`, { 'x-cms-key': project.apiKey }, 5);
    // A client that does not take gzip: the stored bytes decompressed as they are sent.
    const identitySnapshot = await timeGets(
      `${folio.url}/v1/snapshot`,
      { 'x-cms-key': project.apiKey, 'accept-encoding': 'identity' },
      5,
    );
    if (!identitySnapshot.body.equals(warmSnapshot.body)) throw new Error('the snapshot differs by encoding');
    const rssServed = peakRssKb(folio.child.pid!);

    line('\n## GET /v1/pages over HTTP (target < 50 ms), beside bare node:http sending the same bytes\n');
    line('| request | Folio median | slowest | bare node:http median | answer bytes | pages | target |');
    line('|---|---|---|---|---|---|---|');
    for (const { name, q } of queries) {
      const url = `${folio.url}/v1/pages${q ? `?q=${encodeURIComponent(q)}` : ''}`;
      const timed = await timeGets(url, session, REQUESTS);
      const file = join(dir, 'answer.json');
      writeFileSync(file, timed.body);
      const bare = await startScript('bench/speed/bare-http.mjs', [file, '"bare"']);
      const bareTimed = await timeGets(bare.url, {}, REQUESTS);
      await bare.stop();
      const count = (JSON.parse(timed.body.toString()) as { data: unknown[] }).data.length;
      line(
        `| ${name} | ${ms(timed.median)} | ${ms(timed.slowest)} | ${ms(bareTimed.median)} | ${timed.body.length} | ${count} | ${timed.median < TARGET_MS ? 'met' : '**not met**'} |`,
      );
    }

    const snapshotFile = join(dir, 'snapshot.json');
    writeFileSync(snapshotFile, snapshot);
    const bareSnapshot = await startScript('bench/speed/bare-http.mjs', [snapshotFile, '"bare"']);
    servers.push(bareSnapshot);
    const bareSnapshotTimed = await timeGets(bareSnapshot.url, {}, 5);
    line('\n## The snapshot\n');
    line(
      `- ${snapshot.length} bytes, kept and sent as ${wireBytes} bytes (${encoding}). First GET /v1/snapshot of a fresh server (builds it): ${ms(coldSnapshot)}; cached: ${ms(warmSnapshot.median)} (fetch decompressing it); cached, to a client that does not take gzip (decompressed as sent): ${ms(identitySnapshot.median)}; bare node:http sending the same bytes uncompressed: ${ms(bareSnapshotTimed.median)}`,
    );
    line(
      `- Server peak RSS (VmHWM): ${mb(rssBefore)} started and signed in, ${mb(rssAfter)} after building it, ${mb(rssServed)} after serving it 16 times more; bare node:http holding it: ${mb(peakRssKb(bareSnapshot.child.pid!))}`,
    );

    // Bake: against the warm server, a fresh one (the build included), and bare node:http.
    const out = join(dir, 'folio-snapshot.json');
    const warmBake = bake(folio.url, project.apiKey, out);
    await folio.stop();
    folio = await startServer(env, 'second');
    servers.push(folio);
    const coldBake = bake(folio.url, project.apiKey, out);
    const bareBake = bake(bareSnapshot.url, project.apiKey, out);
    line('\n## folio bake (target < 10 s)\n');
    line(
      `- fresh server (snapshot built for it): ${ms(coldBake)} (${coldBake < 10_000 ? 'met' : '**not met**'}); cached: ${ms(warmBake)}; bare node:http sending the same bytes: ${ms(bareBake)}`,
    );
    line(
      `\nLoad average at the end (1, 5, 15 min): ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ')}`,
    );
    writeFileSync(join(root, `bench/results/pages-${dialect}.md`), `${report.join('\n')}\n`);
  } finally {
    for (const server of servers) await server.stop();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
    if (pgUrl) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

await main();
