import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * Child processes of the tests (Folio, `next dev`, `next start`, a build), each in its own process
 * group so that stopping one stops what it started too (Next runs workers), and nothing else.
 */
/** A child's whole environment: nothing of the test runner's leaks in unless passed. */
export type Env = Record<string, string | undefined>;

export interface Running {
  url: string;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function launch(command: string, args: string[], options: { cwd: string; env: Env }) {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pid = child.pid;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** A server process, ready once `url` answers HTTP (any status). */
export async function startServer(
  command: string,
  args: string[],
  options: { cwd: string; env: Env; url: string; timeoutMs?: number },
): Promise<Running> {
  const { child, output } = launch(command, args, options);
  const running: Running = { url: options.url, output, stop: () => stopGroup(child) };
  const until = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${args.join(' ')} exited (${child.exitCode}):\n${output()}`);
    const answered = await fetch(options.url, { signal: AbortSignal.timeout(30_000) }).then(
      () => true,
      () => false,
    );
    if (answered) return running;
    if (Date.now() > until) {
      await running.stop();
      throw new Error(`${args.join(' ')} did not answer at ${options.url}:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs a command to its end; its output, or an error with the output when it fails. */
export async function runToEnd(
  command: string,
  args: string[],
  options: { cwd: string; env: Env },
): Promise<string> {
  const { child, output } = launch(command, args, options);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${output()}`);
  return output();
}
