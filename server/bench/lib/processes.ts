/**
 * Servers for the benchmarks, each in its own process so the load generator does not share its
 * event loop. Folio runs as it does in production — the compiled build (`node dist/server.js`, so
 * run `npm run build` first; the bench:* scripts do) with its logs going to a file, not to a pipe the
 * runner would have to drain. Readiness is a poll of /health, never a scan of the output.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname;

/**
 * Two cores, two roles: servers run on CPU 1 and the load generator (this process) on CPU 0, so
 * they stop stealing each other's time slices. Unpinned, one scenario's throughput swung by up to
 * 25% between runs, more than the differences the benches exist to show. No-op without `taskset`
 * or with fewer than two CPUs.
 */
const pinning = cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;
const SERVER_CPU = '1';

/** Pins the calling process (the load generator) to CPU 0; call once at the start of a runner. */
export function pinLoadGenerator(): void {
  if (pinning) spawnSync('taskset', ['-pc', '0', String(process.pid)]);
}

/** The command that runs `args` under node on the servers' CPU. */
export function nodeCommand(args: string[]): [string, string[]] {
  return pinning ? ['taskset', ['-c', SERVER_CPU, process.execPath, ...args]] : [process.execPath, args];
}

export interface Started {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

async function waitUntilUp(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${what} did not come up at ${url}`);
}

/**
 * `node dist/server.js` with `env`; stdout and stderr appended to `logFile`. `at`: the server
 * package to run (another commit's build, for bench/compare).
 */
export async function startFolio(env: Record<string, string>, logFile: string, at = root): Promise<Started> {
  const port = await freePort();
  const fd = openSync(logFile, 'a');
  const [command, args] = nodeCommand([join(at, 'dist/server.js')]);
  const child = spawn(command, args, {
    cwd: at,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${url}/health`, child, `Folio (log: ${logFile})`);
  return { child, url, stop: stopper(child) };
}

/**
 * A TypeScript helper server (`node --import tsx <script> <port> ...args`): it must listen on the
 * port given as its first argument; `probePath` is fetched until it answers.
 */
export async function startScript(script: string, args: string[], probePath = '/'): Promise<Started> {
  const port = await freePort();
  const [command, argv] = nodeCommand(['--import', 'tsx', join(root, script), String(port), ...args]);
  const child = spawn(command, argv, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${url}${probePath}`, child, script);
  return { child, url, stop: stopper(child) };
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * User + system CPU time of a process so far, in microseconds (Linux /proc; clock ticks of 10 ms);
 * `withChildren` adds that of the children it has waited for.
 * What a server spent per request, measured this way, hardly moves with other load on the machine,
 * where wall-clock latency and throughput do.
 */
export function cpuMicros(pid: number | 'self', withChildren = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  // cutime, cstime (16 and 17): the children it has waited for, such as a finished wrk.
  if (withChildren) ticks += Number(fields[13]) + Number(fields[14]);
  return (ticks / CLOCK_TICKS) * 1e6;
}

/**
 * CPU time so far of every PostgreSQL server process on this machine (backends, walwriter,
 * autovacuum: `pgrep -x postgres`), in microseconds. A process that ends between the listing and the
 * read counts as zero. Compare two readings around a load, with nothing else using the server.
 */
export function postgresCpuMicros(): number {
  const listed = spawnSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' });
  if (listed.error) throw new Error('pgrep is missing (Debian: apt-get install -y procps)');
  let total = 0;
  for (const pid of listed.stdout.split('\n').filter(Boolean)) {
    try {
      total += cpuMicros(Number(pid));
    } catch {
      // gone since the listing
    }
  }
  return total;
}
