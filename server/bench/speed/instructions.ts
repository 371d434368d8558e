/**
 * `npm run bench:instructions -w @folio/server` (issue 13): what a visitor read costs in instructions,
 * Folio against bare node:http, counted by valgrind's callgrind instead of timed.
 *
 * Why: bench/speed times the same reads, and its ratios move by ±2 points between runs on a quiet
 * machine and by far more on a noisy one (bench/results/speed-notes.md, round 16: a machine whose
 * bare server's throughput swung by 20% between 2 s runs). The access line costs a 304 a few points,
 * so a change to it cannot be judged by time there. callgrind counts the instructions each process
 * runs in user space, all its threads included, whatever else the machine does: the same build read
 * twice gives the same count within about 1–3%.
 *
 * What it does not count: the kernel (the socket's reads and writes, the log file's write), which
 * is most of a 304's time; cache misses. So it tells what Folio's own code costs per request, not the
 * throughput ratio: read it beside bench/speed, not instead of it.
 *
 * Each system runs alone under `valgrind --tool=callgrind` with instrumentation off until it is warm
 * (BENCH_WARMUP_SECONDS of load per scenario), then each scenario is counted again and again
 * (instrumentation on, BENCH_DURATION seconds of wrk at 10 connections, off, dump) until its last
 * BENCH_ROUNDS counts agree within 8% (at most BENCH_MAX_ROUNDS counts); the figure is their median
 * of total instructions over requests answered.
 * Systems: bare node:http (bench/speed/bare-http.mjs), Folio on SQLite from dist/ at LOG_LEVEL=info
 * (the default) and warn, and with BENCH_BASE_DIR another build at info. Under valgrind a process answers about a thousand requests a second, not
 * tens of thousands, so work done once per millisecond or once per second is counted for far fewer
 * requests than natively (the access line's time is written once a millisecond; see Folio's env below).
 *
 * Needs valgrind and wrk (Debian's packages). Writes bench/results/instructions.json and .md.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedProject } from '../content/seed.js';
import { freePort, root } from '../lib/processes.js';
import { requireWrk, wrk } from '../lib/wrk.js';
import { median } from './report.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** BENCH_BASE_DIR (+ BENCH_BASE_LABEL): also Folio at info from another commit's build (its dist/). */
const BASE_DIR = process.env.BENCH_BASE_DIR;
const BASE_LABEL = process.env.BENCH_BASE_LABEL ?? 'base build';
/** Comma-separated parts of system names: only those (the first, bare node:http, always runs). */
const ONLY = process.env.BENCH_ONLY?.split(',');
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
const CONNECTIONS = 10;
/** Counts per scenario at most, and how close the last ROUNDS must be (spread over median). */
const MAX_ROUNDS = Number(process.env.BENCH_MAX_ROUNDS ?? 10);
const SETTLED = 0.08;

const PAGE_PATH = '/v1/content/%2F';
/** HOST is Folio's listen address, and valgrind's gdbserver names its pipes after it too. */
const HOST = '127.0.0.1';

interface System {
  name: string;
  args: string[];
  env: Record<string, string>;
}

interface Counts {
  /** The last ROUNDS counts, instructions per request. */
  kept: number[];
  /** Whether they agreed within SETTLED before MAX_ROUNDS ran out. */
  settled: boolean;
  counted: number;
}

interface Result {
  system: string;
  scenario: string;
  /** Instructions per request: the median of `rounds`. */
  perRequest: number;
  rounds: number[];
  settled: boolean;
  counted: number;
}

interface Scenario {
  name: string;
  path: string;
  /** The If-None-Match sent, or none. */
  etag?: string;
}

function settled(seen: number[]): boolean {
  if (seen.length < ROUNDS) return false;
  const last = seen.slice(-ROUNDS);
  return (Math.max(...last) - Math.min(...last)) / median(last) <= SETTLED;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function requireValgrind(): void {
  if (spawnSync('valgrind', ['--version']).error)
    throw new Error('valgrind is not installed: apt-get install -y valgrind (bench/speed/instructions.ts)');
}

/** One callgrind_control command to a process (-z, -i on, -i off, -d). */
function control(pid: number, ...args: string[]): void {
  execFileSync('callgrind_control', [...args, String(pid)], {
    env: { ...process.env, HOST },
    stdio: 'ignore',
  });
}

/** The instruction total of the newest dump `prefix`.<n>, once callgrind has written all of it. */
async function dumpTotal(dir: string, prefix: string, count: number): Promise<number> {
  const file = join(dir, `${prefix}.${count}`);
  for (let i = 0; i < 600; i++) {
    try {
      const totals = /^totals: (\d+)/m.exec(readFileSync(file, 'utf8'));
      if (totals) return Number(totals[1]);
    } catch {
      // not there yet
    }
    await sleep(100);
  }
  throw new Error(`callgrind wrote no dump ${file}`);
}

async function waitFor(url: string, headers: Record<string, string>, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer`);
}

async function measure(
  system: System,
  scenarios: Scenario[],
  key: string,
  dir: string,
): Promise<Record<string, Counts>> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const prefix = system.name.replace(/[^a-z0-9]+/gi, '-');
  const log = openSync(join(dir, `${prefix}.log`), 'a');
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      // V8 writes and patches its code at run time: valgrind must see those writes.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(dir, prefix)}`,
      process.execPath,
      ...system.args.map((a) => a.replace('{port}', String(port))),
    ],
    {
      cwd: dir,
      env: { ...process.env, HOST, PORT: String(port), ...system.env },
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  const pid = child.pid as number;
  const headers = (s: Scenario) => ({ 'x-cms-key': key, ...(s.etag ? { 'if-none-match': s.etag } : {}) });
  const counts: Record<string, Counts> = {};
  let dumps = 0;
  try {
    await waitFor(`${url}${PAGE_PATH}`, headers({ name: '', path: PAGE_PATH }), child);
    for (const scenario of scenarios) {
      const target = {
        url: `${url}${scenario.path}`,
        headers: headers(scenario),
        connections: CONNECTIONS,
        timeoutSeconds: 30,
      };
      await wrk({ ...target, durationSeconds: WARMUP_SECONDS });
      // Counted until the last ROUNDS counts agree within SETTLED: the first counts after the warm-up
      // read two to four times the later ones (TurboFan still compiling: valgrind runs one thread at
      // a time, so V8's background compiles finish late), and a count with a full garbage collection
      // in it reads higher. Only the last ROUNDS are kept.
      const seen: number[] = [];
      for (let round = 0; round < MAX_ROUNDS && !settled(seen); round++) {
        control(pid, '-z');
        control(pid, '-i', 'on');
        const result = await wrk({ ...target, durationSeconds: DURATION });
        control(pid, '-i', 'off');
        control(pid, '-d');
        const total = await dumpTotal(dir, prefix, ++dumps);
        if (result.errors > 0 || result.requests === 0)
          throw new Error(
            `${system.name}, ${scenario.name}: ${result.requests} answers, ${result.errors} errors`,
          );
        // A 304 is headers only, the page 16 KB: anything else means the system answered otherwise.
        if (scenario.etag ? result.bytesPerRequest > 1000 : result.bytesPerRequest < 10_000)
          throw new Error(`${system.name}, ${scenario.name}: ${result.bytesPerRequest} bytes per answer`);
        seen.push(Math.round(total / result.requests));
        console.log(`${system.name}, ${scenario.name}, count ${round + 1}: ${seen.at(-1)}`);
      }
      counts[scenario.name] = { kept: seen.slice(-ROUNDS), settled: settled(seen), counted: seen.length };
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  return counts;
}

/** The visitor page and both ETags, from a Folio run normally (the bare server answers with them). */
async function pageOf(env: Record<string, string>, key: string, dir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist/server.js')], {
    cwd: dir,
    env: { ...process.env, ...env, HOST, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    const url = `http://${HOST}:${port}`;
    const headers = { 'x-cms-key': key };
    await waitFor(`${url}${PAGE_PATH}`, headers, child);
    const page = await fetch(`${url}${PAGE_PATH}`, { headers });
    const snap = await fetch(`${url}/v1/snapshot`, { headers });
    await snap.arrayBuffer();
    return {
      body: Buffer.from(await page.arrayBuffer()),
      pageEtag: page.headers.get('etag') as string,
      snapEtag: snap.headers.get('etag') as string,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

function report(
  meta: Record<string, unknown>,
  scenarios: Scenario[],
  systems: System[],
  results: Result[],
): string {
  const of = (system: string, scenario: string) =>
    results.find((r) => r.system === system && r.scenario === scenario) as (typeof results)[number];
  const bare = systems[0]?.name as string;
  const measured = systems.filter((system) => results.some((r) => r.system === system.name));
  const rows = measured.map((system) => {
    const cells = scenarios.flatMap((s) => {
      const r = of(system.name, s.name);
      const ratio = r.perRequest / of(bare, s.name).perRequest;
      return [
        `${r.perRequest.toLocaleString('en')} (${r.rounds.map((n) => n.toLocaleString('en')).join(', ')}${r.settled ? '' : '; **not settled**'})`,
        `${ratio.toFixed(2)}×`,
      ];
    });
    return `| ${system.name} | ${cells.join(' | ')} |`;
  });
  const [info, warn] = [systems[1]?.name as string, systems[2]?.name as string];
  // Whenever both levels were measured (BENCH_ONLY may leave one out).
  const both = [info, warn].every((name) => measured.some((m) => m.name === name));
  const access = !both
    ? ''
    : `The access line at info, instructions per request over warn's: ${scenarios
        .map(
          (s) =>
            `${s.name}: ${(of(info, s.name).perRequest - of(warn, s.name).perRequest).toLocaleString('en')}`,
        )
        .join('; ')}.`;
  return `# Instructions per request (issue 13)

${meta.date}. ${meta.cpu}, Node ${meta.node}. Each system alone under valgrind's callgrind, warmed up
for ${meta.warmupSeconds} s of each scenario's load, then counted (${meta.durationSeconds} s of wrk at ${meta.connections} connections)
until its last ${meta.rounds} counts agreed within 8%: user-space instructions of the whole process (all
threads) over the requests answered, the median of those counts (in brackets). Not counted: the kernel, cache misses. Why and how:
bench/speed/instructions.ts.

| system | ${scenarios.map((s) => `${s.name} | vs bare`).join(' | ')} |
|---|${scenarios.map(() => '---:|---:').join('|')}|
${rows.join('\n')}

${access}
`;
}

async function main() {
  requireValgrind();
  requireWrk();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-instructions-'));
  try {
    const file = join(dir, 'cms.sqlite');
    const handle = await openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(handle.db);
    const { apiKey } = await seedProject(handle.db, 'Instructions bench', 200, 20);
    await handle.close();

    const folio = (level: string, at = root): System => ({
      name: `Folio SQLite, LOG_LEVEL=${level}${at === root ? '' : ` (${BASE_LABEL})`}`,
      args: [join(at, 'dist/server.js')],
      // Without the in-process worker: its polls cost per second, not per request, and under valgrind
      // a second holds about a thousand requests instead of tens of thousands, so they read as about
      // 20k instructions per request (measured) and unsettled every count. Natively they are under
      // 1% of a busy process (bench/results/speed-notes.md, round 14: the 304 with and without them).
      env: {
        DATABASE_URL: `sqlite:${file}`,
        CMS_DATA_DIR: dir,
        LOG_LEVEL: level,
        CMS_WORKER_ENABLED: 'false',
      },
    });
    const { body, pageEtag, snapEtag } = await pageOf(folio('warn').env, apiKey, dir);
    writeFileSync(join(dir, 'page.json'), body);
    const systems: System[] = [
      {
        name: 'bare node:http, precomputed bytes',
        args: [join(root, 'bench/speed/bare-http.mjs'), '{port}', join(dir, 'page.json'), pageEtag, snapEtag],
        env: {},
      },
      folio('info'),
      folio('warn'),
      ...(BASE_DIR ? [folio('info', BASE_DIR)] : []),
    ];
    const scenarios: Scenario[] = [
      { name: 'snapshot 304', path: '/v1/snapshot', etag: snapEtag },
      { name: 'page 200', path: PAGE_PATH },
    ];
    const results: Result[] = [];
    for (const system of systems) {
      if (ONLY && system !== systems[0] && !ONLY.some((part) => system.name.includes(part))) continue;
      const counts = await measure(system, scenarios, apiKey, dir);
      for (const [scenario, { kept, settled, counted }] of Object.entries(counts))
        results.push({
          system: system.name,
          scenario,
          perRequest: median(kept),
          rounds: kept,
          settled,
          counted,
        });
    }
    const out = join(root, 'bench/results');
    const meta = {
      date: new Date().toISOString(),
      cpu: cpus()[0]?.model,
      node: process.version,
      rounds: ROUNDS,
      durationSeconds: DURATION,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
    };
    writeFileSync(join(out, 'instructions.json'), `${JSON.stringify({ ...meta, results }, null, 2)}\n`);
    writeFileSync(join(out, 'instructions.md'), report(meta, scenarios, systems, results));
    console.log(readFileSync(join(out, 'instructions.md'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
