/**
 * Directus as the write baseline (bench/writes/README.md says how to install it): a fresh
 * PostgreSQL database, `directus bootstrap` (migrations, the admin with a static token), `directus
 * start` pinned to the servers' CPU like Folio, then a collection with a few fields and `items`
 * items made through its API. BENCH_DIRECTUS_DIR: the install (its node_modules holds `directus`);
 * BENCH_DIRECTUS_NODE: the node binary it needs (Directus 11 needs Node 22).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../lib/processes.js';

export interface DirectusServer {
  url: string;
  pid: number;
  version: string;
  nodeVersion: string;
  collection: string;
  ids: string[];
  headers: Record<string, string>;
  stop(): Promise<void>;
}

const TOKEN = 'folio-bench-directus-static-admin-token';
const COLLECTION = 'articles';

async function api(url: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Directus ${method} ${url}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as any).data : null;
}

export async function startDirectus(pgUrl: string, dir: string, items: number): Promise<DirectusServer> {
  const at = process.env.BENCH_DIRECTUS_DIR!;
  const node = process.env.BENCH_DIRECTUS_NODE ?? process.execPath;
  const cli = join(at, 'node_modules/directus/cli.js');
  const version = JSON.parse(readFileSync(join(at, 'node_modules/directus/package.json'), 'utf8')).version;
  const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const dbName = `folio_bench_directus_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const db = new URL(pgUrl);
  const port = await freePort();
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DB_CLIENT: 'pg',
    DB_HOST: db.hostname,
    DB_PORT: db.port || '5432',
    DB_DATABASE: dbName,
    DB_USER: decodeURIComponent(db.username) || 'postgres',
    DB_PASSWORD: decodeURIComponent(db.password),
    SECRET: 'folio-bench-directus-secret-folio-bench-directus-secret',
    KEY: 'folio-bench-directus-key',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'correct horse battery staple',
    ADMIN_TOKEN: TOKEN,
    LOG_LEVEL: 'warn',
    TELEMETRY: 'false',
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    // Its load shedding (on by default since Directus 10.4) answers 503 at once when its event loop is
    // 99% busy, which a server pinned to one core under ten editors is: measured are its writes, not
    // its refusals (with wrk, nine answers in ten were 503s before this).
    PRESSURE_LIMITER_ENABLED: 'false',
    // Directus's own default pool; it answers 10 connections like Folio's pool of 10.
    DB_POOL__MAX: '10',
  };
  const log = join(dir, 'directus.log');
  const boot = spawnSync(node, [cli, 'bootstrap'], { cwd: at, env, encoding: 'utf8' });
  if (boot.status !== 0) throw new Error(`directus bootstrap failed: ${boot.stderr || boot.stdout}`);
  const fd = openSync(log, 'a');
  const pinned = spawnSync('taskset', ['-V']).status === 0;
  const child: ChildProcess = pinned
    ? spawn('taskset', ['-c', '1', node, cli, 'start'], { cwd: at, env, stdio: ['ignore', fd, fd] })
    : spawn(node, [cli, 'start'], { cwd: at, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`directus exited with ${child.exitCode} (log: ${log})`);
    try {
      const res = await fetch(`${url}/server/ping`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`directus did not come up (log: ${log})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  await api(`${url}/collections`, 'POST', {
    collection: COLLECTION,
    meta: {},
    schema: {},
    fields: [
      {
        field: 'id',
        type: 'integer',
        meta: { hidden: true },
        schema: { is_primary_key: true, has_auto_increment: true },
      },
      { field: 'title', type: 'string', meta: {}, schema: {} },
      { field: 'body', type: 'text', meta: {}, schema: {} },
      { field: 'status', type: 'string', meta: {}, schema: { default_value: 'draft' } },
    ],
  });
  const created = (await api(
    `${url}/items/${COLLECTION}`,
    'POST',
    Array.from({ length: items }, (_, i) => ({ title: `Item ${i}`, body: 'x', status: 'published' })),
  )) as { id: number }[];
  return {
    url,
    pid: child.pid!, // taskset execs node: the same process
    version,
    nodeVersion,
    collection: COLLECTION,
    ids: created.map((c) => String(c.id)),
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    },
  };
}
