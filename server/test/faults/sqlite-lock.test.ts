import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sleep, waitFor } from '../helpers/hooks.js';
import { type ServerProcess, startServerProcess } from '../helpers/process.js';

// Issue 10, defect 11: two servers on one SQLite file used to both start, and the second served
// stale pages. Real processes, since the lock is the operating system's.
const root = new URL('../..', import.meta.url).pathname;

/** Runs `node src/<entry>` until it exits (killed after 60 s); its status and everything it printed. */
async function runToExit(entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { code, output };
}

describe('one server per SQLite database', () => {
  const parent = mkdtempSync(join(tmpdir(), 'folio-lock-'));
  // Not created yet, as on a first start.
  const dataDir = join(parent, 'data');
  const children: ServerProcess[] = [];
  after(async () => {
    for (const c of children) {
      if (c.child.exitCode === null && c.child.signalCode === null) {
        c.child.kill('SIGKILL');
        await c.exited;
      }
    }
    rmSync(parent, { recursive: true, force: true });
  });

  it('a second server on the same file exits with one clear line; after a crash the lock is free', async () => {
    const first = await startServerProcess({ CMS_DATA_DIR: dataDir });
    children.push(first);

    // The stand-alone worker may share the file with the server; it starts while a second server is refused.
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: root,
      env: { ...process.env, CMS_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const workerExit = new Promise((resolve) => worker.on('exit', resolve));
    let workerOutput = '';
    worker.stdout.on('data', (c: Buffer) => {
      workerOutput += c.toString();
    });
    worker.stderr.on('data', (c: Buffer) => {
      workerOutput += c.toString();
    });

    const refused = await runToExit('src/server.ts', { CMS_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
    assert.equal(refused.code, 1);
    const lines = refused.output.split('\n').filter((l) => l.trim() !== '');
    assert.equal(lines.length, 1, refused.output);
    assert.match(lines[0]!, /already running on .*cms\.sqlite/);
    assert.equal((await fetch(`${first.url}/health`)).status, 200, 'the first server is unharmed');

    await waitFor(() => workerOutput.includes('Folio worker running') || worker.exitCode !== null, 60_000);
    await sleep(200);
    assert.equal(worker.exitCode, null, `the worker runs beside the server:\n${workerOutput}`);
    worker.kill('SIGTERM');
    assert.equal(await workerExit, 0);

    // A crash leaves no stale lock behind.
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startServerProcess({ CMS_DATA_DIR: dataDir });
    children.push(second);
    assert.equal((await fetch(`${second.url}/health`)).status, 200);
  });
});
