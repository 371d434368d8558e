import { type ChildProcess, spawn } from 'node:child_process';
import { trackRunning } from './leaks.js';

const root = new URL('../..', import.meta.url).pathname;

// Children die with this test process, however it ends: when the runner stops a file that ran past
// its time limit (SIGTERM), a child left behind would keep its port, its database and a CPU busy.
const children = new Set<ChildProcess>();
const killChildren = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
};
process.once('exit', killChildren);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    killChildren();
    process.exit(1);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

export type WorkerProcess = Omit<ServerProcess, 'url'>;

/**
 * Starts `node <entry>` as a real process and waits for its "running at <url>" line: the source
 * (src/server.ts, under tsx) or the build (dist/server.js, under plain node, as `npm start` runs it).
 */
export async function startServerProcess(
  env: Record<string, string>,
  entry = 'src/server.ts',
): Promise<ServerProcess> {
  const { match, ...started } = await startProcess(
    entry,
    { PORT: '0', LOG_LEVEL: 'warn', ...env },
    /running at (http:\/\/\S+)/,
  );
  return { ...started, url: match[1] as string };
}

/** Starts the stand-alone worker (`node src/worker.ts`, or dist/worker.js) and waits until it says it is running. */
export async function startWorkerProcess(
  env: Record<string, string>,
  entry = 'src/worker.ts',
): Promise<WorkerProcess> {
  const { match: _match, ...started } = await startProcess(
    entry,
    { LOG_LEVEL: 'info', ...env },
    /Folio worker running/,
  );
  return started;
}

/** Spawns `node <entry>`, tracked by the leak check, and waits for `ready` in its output. */
async function startProcess(entry: string, env: Record<string, string>, ready: RegExp) {
  const args = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const release = trackRunning(`process ${child.pid} (${entry})`, async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  void exited.then(release);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    // A process that does not come up is killed, so it cannot hold ports, a SQLite lock or the test
    // runner's event loop. Generous: a loaded shared machine can take tens of seconds to start tsx.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start:\n${output}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited before it started:\n${output}`));
    });
  });
  return { child, match, output: () => output, exited };
}
