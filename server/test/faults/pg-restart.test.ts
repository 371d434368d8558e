import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { uniqueEmail } from '../helpers/factories.js';
import { sleep, waitFor } from '../helpers/hooks.js';
import { type ServerProcess, startServerProcess } from '../helpers/process.js';

// Issue 10, defect 1: a PostgreSQL restart (what a failover or an upgrade does) must not kill Folio.
// The shared test server cannot be restarted (other test files use it), so this test runs a
// PostgreSQL of its own: initdb into a temp directory, a free port, restarted five times under load.
const RESTARTS = 5;
const CLIENTS = 6;

function pgBin(name: string): string {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort() : [];
  const dir = versions.at(-1);
  if (!dir) throw new Error('PostgreSQL binaries not found in /usr/lib/postgresql');
  return join('/usr/lib/postgresql', dir, 'bin', name);
}

/**
 * initdb and pg_ctl refuse to run as root: run them as the postgres user then. Asynchronous, so the
 * load keeps going while PostgreSQL is down (a synchronous call would pause this process with it).
 */
async function asPostgres(command: string, args: string[]): Promise<void> {
  const [file, argv] =
    process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  await promisify(execFile)(file, argv, { timeout: 60_000 });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('PostgreSQL restarted under load', { skip: !process.env.TEST_DATABASE_URL }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-pg-'));
  const data = join(dir, 'data');
  let server: ServerProcess | undefined;
  let running = false;
  after(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    if (running) await asPostgres(pgBin('pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  });

  it(`no process exit over ${RESTARTS} restarts; answers are 2xx or 503 unavailable; it recovers`, async (t) => {
    if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'])), 0);
    await asPostgres(pgBin('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const port = await freePort();
    const pgctl = (...args: string[]) =>
      asPostgres(pgBin('pg_ctl'), [
        '-D',
        data,
        '-w',
        '-l',
        join(data, 'log'),
        '-o',
        `-p ${port} -k ${data} -c listen_addresses=127.0.0.1 -c fsync=off`,
        ...args,
      ]);
    await pgctl('start');
    running = true;
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE folio');
    await admin.end();

    server = await startServerProcess({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/folio`,
      CMS_DATA_DIR: dir,
      LOG_LEVEL: 'fatal',
      CMS_WORKER_POLL_MS: '50',
    });
    const base = server.url;
    let exit: string | null = null;
    void server.exited.then((code) => {
      exit = `exited with ${code}`;
    });
    const password = 'long enough pw';
    const email = uniqueEmail('admin');
    const created = await fetch(`${base}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Restarts', admin: { email, password } }),
    });
    assert.equal(created.status, 201);
    const projectId = ((await created.json()) as any).data.project.id as string;
    const login = await fetch(`${base}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const token = ((await login.json()) as any).data.token as string;
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    // Load: session lookups and writes, until the restarts are over.
    const answers: { status: number; code: string | null; retryAfter: string | null }[] = [];
    let loading = true;
    let n = 0;
    const client = async () => {
      while (loading) {
        n += 1;
        const res = await fetch(
          n % 2 ? `${base}/v1/auth/me` : `${base}/v1/projects/${projectId}`,
          n % 2
            ? { headers: auth }
            : { method: 'PATCH', headers: auth, body: JSON.stringify({ name: `Restarts ${n}` }) },
        ).catch(() => null);
        if (!res) {
          answers.push({ status: 0, code: 'connection to Folio failed', retryAfter: null });
          continue;
        }
        const body = (await res.json().catch(() => null)) as any;
        answers.push({
          status: res.status,
          code: body?.error?.code ?? null,
          retryAfter: res.headers.get('retry-after'),
        });
      }
    };
    const load = Array.from({ length: CLIENTS }, client);
    try {
      for (let i = 0; i < RESTARTS; i++) {
        await sleep(300);
        await pgctl('-m', 'fast', 'restart');
        assert.equal(exit, null, 'the Folio process exited');
      }
      await sleep(300);
    } finally {
      loading = false;
      await Promise.all(load);
    }
    t.diagnostic(
      `${answers.length} requests over ${RESTARTS} restarts, ${answers.filter((a) => a.status === 503).length} answered 503`,
    );
    const bad = answers.filter(
      (a) =>
        !(a.status >= 200 && a.status < 300) &&
        !(a.status === 503 && a.code === 'unavailable' && a.retryAfter),
    );
    assert.deepEqual(
      bad.slice(0, 5),
      [],
      `${bad.length} of ${answers.length} answers were neither 2xx nor 503`,
    );
    assert.ok(
      answers.some((a) => a.status === 503),
      'some requests met PostgreSQL down (else the test did not test a restart)',
    );
    assert.equal(exit, null, 'the Folio process exited');

    // Recovery: health, a read and a write work again without restarting Folio.
    await waitFor(async () => (await fetch(`${base}/health`)).status === 200, 10_000, 'healthy again');
    const renamed = await fetch(`${base}/v1/projects/${projectId}`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify({ name: 'After the restarts' }),
    });
    assert.equal(renamed.status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });
});
