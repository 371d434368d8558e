/**
 * `npm run bench:memory -w @folio/server -- [sqlite|postgres] [count] [idle seconds]`:
 * what the fuzz suite's requests leave in a server's memory (issue 38). One Folio process
 * (`dist/server.js`, its worker inside, logs at info to a file) on a fresh database; the fuzz
 * generator's requests reach it over HTTP from this process, WAVE at a time, as an outsider's probe
 * does. The server's resident set size (/proc) and V8 heap (its /metrics) are read before, right
 * after, and after an idle spell.
 *
 * FOLIO_HEAP_SNAPSHOTS=1 also has the server write a heap snapshot at each point (SIGUSR2, node's
 * --heapsnapshot-signal), sums them by constructor and prints what grew. Writing a snapshot leaves
 * the server's RSS far higher (it is a large native allocation, and a GC), so take figures and
 * snapshots in separate runs. PostgreSQL needs TEST_DATABASE_URL (an admin URL; a database is made
 * and dropped).
 *
 * FOLIO_BENCH_PROBE=N asks `/health/ready` after every wave from request N on and stops at the first
 * wave after which the database does not answer, printing that wave's requests: how the SQLite
 * deadlock of issue 42 (a restore after a project's settings changed) was found.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { generate, operationsOf } from '../../test/fuzz/generate.js';
import { rng } from '../../test/fuzz/random.js';
import { fuzzFixtures } from '../../test/fuzz/suite.js';
import { remoteApp } from '../../test/helpers/remote.js';
import { freePort, root } from '../lib/processes.js';
import { growth, type HeapGroup, summarizeSnapshot } from './heap-summary.js';

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const COUNT = Number(process.argv[3] ?? 7183);
const IDLE_S = Number(process.argv[4] ?? 60);
const SEED = Number(process.env.FOLIO_FUZZ_SEED ?? 20_261_123);
const SNAPSHOTS = process.env.FOLIO_HEAP_SNAPSHOTS === '1';
/** Requests in flight at once (the fuzz suite's 8 by default; FOLIO_FUZZ_WAVE for more). */
const WAVE = Number(process.env.FOLIO_FUZZ_WAVE ?? 8);
const MB = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;
const unanswered: string[] = [];

const dir = mkdtempSync(join(tmpdir(), 'folio-memory-'));
const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];

let databaseUrl = `sqlite:${join(dir, 'folio.sqlite')}`;
if (kind === 'postgres') {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `folio_memory_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  cleanups.unshift(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const log = openSync(join(dir, 'server.log'), 'a');
const server: ChildProcess = spawn(
  process.execPath,
  [...(SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR2'] : []), join(root, 'dist/server.js')],
  {
    cwd: dir, // where the snapshots land
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      CMS_DATA_DIR: join(dir, 'data'),
      CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
      CMS_WEBHOOK_TIMEOUT_MS: '500',
      CMS_PROJECT_CREATE_LIMIT_PER_HOUR: '100000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', log, log],
  },
);
closeSync(log);
cleanups.unshift(
  () =>
    new Promise<void>((resolve) => {
      if (server.exitCode !== null) return resolve();
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    }),
);

async function finish(): Promise<void> {
  for (const cleanup of cleanups) await cleanup();
}

try {
  for (let up = false, deadline = Date.now() + 60_000; !up; ) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('the server did not start');
    up = await fetch(`${base}/health`)
      .then((r) => r.arrayBuffer().then(() => r.ok))
      .catch(() => false);
    if (!up) await new Promise((r) => setTimeout(r, 100));
  }

  // The suite's fixtures, made over HTTP: an app whose inject is a fetch to the server.
  const overHttp = remoteApp(base);
  const fx = await fuzzFixtures(overHttp);
  const ops = operationsOf((await (await fetch(`${base}/v1/openapi.json`)).json()) as never);

  const figures: Record<string, { rssMB: number; heapUsedMB: number }> = {};
  const summaries: Record<string, Map<string, HeapGroup>> = {};
  const rssMB = () => {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
    return +(Number(line?.[1]) / 1024).toFixed(1);
  };
  const heapUsedMB = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const used = /^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1];
    return +(Number(used) / MB).toFixed(1);
  };
  /** Has the server write a heap snapshot and waits until the file stops growing. */
  async function snapshot(): Promise<string> {
    const before = new Set(readdirSync(dir));
    server.kill('SIGUSR2');
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
      if (!file) continue;
      const size = statSync(join(dir, file)).size;
      await new Promise((r) => setTimeout(r, 1000));
      if (size > 0 && statSync(join(dir, file)).size === size) return join(dir, file);
    }
  }
  async function measure(label: string): Promise<void> {
    figures[label] = { rssMB: rssMB(), heapUsedMB: await heapUsedMB() };
    if (SNAPSHOTS) {
      summaries[label] = summarizeSnapshot(await snapshot());
      // The snapshot collected garbage first: the heap as it is live.
      figures[label].heapUsedMB = await heapUsedMB();
    }
    process.stdout.write(`${label}: ${JSON.stringify(figures[label])}\n`);
  }

  const agent = new Agent({ keepAlive: true, maxSockets: WAVE });
  const send = (index: number): Promise<number> => {
    const r = rng(SEED, index);
    const req = generate(r.pick(ops), fx, r);
    return new Promise((resolve) => {
      let client: ReturnType<typeof request>;
      try {
        client = request(`${base}${req.url}`, { method: req.method, headers: req.headers, agent });
      } catch {
        resolve(0); // a header Node refuses to send: no server would see it
        return;
      }
      client.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      });
      client.on('error', () => resolve(0));
      client.on('close', () => resolve(0)); // destroyed after its answer began: no 'error' comes
      // Bounded: a request the server never answers (one did, issue 42) is noted, not waited on forever.
      client.setTimeout(REQUEST_TIMEOUT_MS, () => {
        unanswered.push(`#${index} ${req.method} ${req.url.slice(0, 200)}`);
        process.stderr.write(`unanswered: #${index} ${req.method} ${req.url.slice(0, 200)}\n`);
        client.destroy();
      });
      client.end(req.payload);
    });
  };

  await measure('before');
  const statuses = new Map<number, number>();
  for (let start = 0; start < COUNT; start += WAVE) {
    const wave = Array.from({ length: Math.min(WAVE, COUNT - start) }, (_, i) => send(start + i));
    for (const status of await Promise.all(wave)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (process.env.FOLIO_BENCH_PROBE && start >= Number(process.env.FOLIO_BENCH_PROBE)) {
      const ready = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(5000) })
        .then((r) => r.status)
        .catch(() => 0);
      if (ready !== 200) {
        for (let i = start; i < start + WAVE; i++) {
          const r = rng(SEED, i);
          const q = generate(r.pick(ops), fx, r);
          process.stderr.write(
            `wave #${i} ${q.method} ${q.url.slice(0, 300)} ${String(q.payload ?? '').slice(0, 400)}\n`,
          );
        }
        throw new Error(`not ready (${ready}) after the wave at ${start}`);
      }
    }
    // The resident size as the run goes: a bound shows as a plateau, a leak as a slope.
    if (Math.floor((start + WAVE) / 1000) > Math.floor(start / 1000))
      process.stdout.write(`  ${start + WAVE} requests: rss ${rssMB()} MB\n`);
  }
  const summary = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  process.stdout.write(`${COUNT} requests on ${kind}, ${WAVE} at a time: ${summary.join(' ')}\n`);
  for (const line of unanswered)
    process.stdout.write(`  unanswered after ${REQUEST_TIMEOUT_MS} ms: ${line}\n`);
  await measure('after');
  agent.destroy();
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  await measure('idle');

  if (SNAPSHOTS) {
    for (const [from, to] of [
      ['before', 'after'],
      ['before', 'idle'],
    ] as const) {
      process.stdout.write(`\nheap growth ${from} -> ${to} (self size by constructor):\n`);
      for (const g of growth(summaries[from]!, summaries[to]!)) {
        const kb = (n: number) => (n / 1024).toFixed(0).padStart(8);
        process.stdout.write(
          `  ${g.name.slice(0, 40).padEnd(40)} ${String(g.countDelta).padStart(8)} objects ${kb(g.bytesDelta)} KB  (now ${g.count}, ${kb(g.bytes)} KB)\n`,
        );
      }
    }
  }
  process.stdout.write(`\n${JSON.stringify({ kind, count: COUNT, idleSeconds: IDLE_S, figures })}\n`);
} finally {
  await finish();
}
