/**
 * `BENCH_BASE=<git ref> npm run bench:compare`: the visitor read paths of this build against the
 * build of another commit, in one run. Both servers run at once, from their own compiled `dist/`,
 * each on its own copy of one seeded SQLite database, and every round measures each scenario on
 * both, one after the other: on a shared machine whose load swings by tens of percent from one
 * minute to the next, only measurements taken side by side can show a difference of a few percent.
 *
 * Made for "does this change slow the read path?" (first: the request metrics of issue 12). The
 * base must have the same migrations as this build (its server migrates the copy at start).
 * Scenarios as in bench/content: visitor page 200 (a 20-entry page, ~16 KB), visitor page 304 and
 * snapshot 304 (both answered by the revalidation fast path). Reported per build: the server's CPU
 * time per request (from /proc, robust to other load on the machine) beside throughput and p99.
 * BENCH_DURATION: seconds per scenario (default 5); BENCH_ROUNDS: rounds, each scenario reporting its
 * median (default 5).
 * Writes bench/results/compare.json and compare.md.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedProject } from '../content/seed.js';
import { cpuMicros, pinLoadGenerator, root, type Started, startFolio } from '../lib/processes.js';

const BASE = process.env.BENCH_BASE ?? 'HEAD~1';
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const repo = join(root, '..');

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

/** The base commit's server package, compiled, beside this checkout's node_modules. */
function buildBase(dir: string): string {
  const at = join(dir, 'base');
  mkdirSync(at);
  execFileSync('sh', ['-c', `git archive ${BASE} server | tar -x -C "${at}"`], { cwd: repo });
  // Same dependencies as this build: node resolves them upwards from the archive's server/.
  symlinkSync(join(repo, 'node_modules'), join(at, 'node_modules'));
  const server = join(at, 'server');
  execFileSync(join(repo, 'node_modules/.bin/tsc'), ['-p', join(server, 'tsconfig.build.json')], {
    cwd: server,
    stdio: 'inherit',
  });
  return server;
}

interface Result {
  name: string;
  requestsPerSec: number;
  /** CPU time the server process spent per request answered (user + system), in microseconds. */
  cpuMicrosPerRequest: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  errors: number;
}

async function measure(
  name: string,
  server: Started,
  path: string,
  headers: Record<string, string>,
  status: number,
) {
  const url = `${server.url}${path}`;
  const pid = server.child.pid as number;
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 }); // warm-up, not recorded
  const cpuBefore = cpuMicros(pid);
  const r: any = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  const cpu = cpuMicros(pid) - cpuBefore;
  const result: Result = {
    name,
    requestsPerSec: Math.round(r.requests.average),
    cpuMicrosPerRequest: Math.round((cpu / Math.max(1, r.requests.total)) * 100) / 100,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx - (status === 304 ? r['3xx'] : 0),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

async function main() {
  pinLoadGenerator();
  const head = git('rev-parse', '--short', 'HEAD');
  const base = git('rev-parse', '--short', BASE);
  const dirty = git('status', '--porcelain', '--', 'server/src') !== '';
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-compare-'));
  const servers: Started[] = [];
  try {
    const baseRoot = buildBase(dir);
    const file = join(dir, 'seed.sqlite');
    const handle = await openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(handle.db);
    const small = await seedProject(handle.db, 'Page bench', 1, 20);
    const big = await seedProject(handle.db, 'Snapshot bench', 200, 20);
    await handle.close();

    // One server per SQLite file (src/db/sqlite-lock.ts): each gets a copy.
    const start = async (label: string, at: string) => {
      const data = join(dir, `data-${label}`);
      mkdirSync(data);
      copyFileSync(file, join(data, 'cms.sqlite'));
      const env = {
        DATABASE_URL: `sqlite:${join(data, 'cms.sqlite')}`,
        CMS_DATA_DIR: data,
        CMS_WORKER_ENABLED: 'false',
        LOG_LEVEL: 'warn',
      };
      const started = await startFolio(env, join(dir, `${label}.log`), at);
      servers.push(started);
      return started;
    };
    const targets = { base: await start('base', baseRoot), head: await start('head', root) };

    const key = { 'x-cms-key': small.apiKey };
    const page = await fetch(`${targets.head.url}/v1/content/%2F`, { headers: key });
    const pageEtag = page.headers.get('etag') as string;
    await page.arrayBuffer();
    const snap = await fetch(`${targets.head.url}/v1/snapshot`, { headers: { 'x-cms-key': big.apiKey } });
    const snapEtag = snap.headers.get('etag') as string;
    await snap.arrayBuffer();
    const scenarios: [string, string, Record<string, string>, number][] = [
      ['visitor page 200', '/v1/content/%2F', key, 200],
      ['visitor page 304', '/v1/content/%2F', { ...key, 'if-none-match': pageEtag }, 304],
      ['snapshot 304', '/v1/snapshot', { 'x-cms-key': big.apiKey, 'if-none-match': snapEtag }, 304],
    ];

    const runs = new Map<string, Result[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [scenario, path, headers, status] of scenarios) {
        // Alternate which build goes first, so neither always runs right after a warm-up.
        const order = round % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
        for (const which of order) {
          const name = `${which}: ${scenario}`;
          const list = runs.get(name) ?? [];
          list.push(await measure(name, targets[which], path, headers, status));
          runs.set(name, list);
        }
      }
    }
    const median = (name: string, of: (r: Result) => number) => {
      const sorted = (runs.get(name) ?? []).map(of).sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] as number;
    };
    const rows = scenarios.map(([scenario]) => {
      const row = (which: string) => ({
        requestsPerSec: median(`${which}: ${scenario}`, (r) => r.requestsPerSec),
        cpuMicrosPerRequest: median(`${which}: ${scenario}`, (r) => r.cpuMicrosPerRequest),
        latencyP99Ms: median(`${which}: ${scenario}`, (r) => r.latencyP99Ms),
      });
      const b = row('base');
      const h = row('head');
      return {
        scenario,
        base: b,
        head: h,
        throughputRatio: +(h.requestsPerSec / b.requestsPerSec).toFixed(3),
        cpuRatio: +(h.cpuMicrosPerRequest / b.cpuMicrosPerRequest).toFixed(3),
      };
    });

    const summary = {
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
      base,
      head: dirty ? `${head} + uncommitted changes` : head,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      rows,
      runs: Object.fromEntries(runs),
    };
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/compare.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const md = [
      '# Compare bench',
      '',
      `Build ${summary.head} against ${base} (BENCH_BASE=${BASE}). ${summary.machine.cpus} CPUs (${summary.machine.model}), Node ${summary.machine.node}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per scenario after a 1 s warm-up; the median of ${ROUNDS} rounds, the two builds measured one after the other in each round (alternating which goes first). SQLite. Servers and autocannon share the machine.`,
      '',
      "CPU µs per request is the server process's user + system time during the run divided by the requests it answered: unlike throughput, it hardly moves when other processes take the CPU, so it is the figure to compare on a busy machine.",
      '',
      '| scenario | base CPU µs/req | head CPU µs/req | head / base | base req/s | head req/s | base p99 ms | head p99 ms |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.scenario} | ${r.base.cpuMicrosPerRequest} | ${r.head.cpuMicrosPerRequest} | ${r.cpuRatio} | ${r.base.requestsPerSec} | ${r.head.requestsPerSec} | ${r.base.latencyP99Ms} | ${r.head.latencyP99Ms} |`,
      ),
      '',
    ].join('\n');
    writeFileSync(join(root, 'bench/results/compare.md'), md);
    process.stdout.write(`\n${md}`);
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
