/**
 * `npm run bench:objects`: objects/save and objects reads against a real Folio process.
 *
 * - save: ONE request of 1,000 objects x 10 fields + 2 collections x 10 items (first save = all
 *   inserts, then re-saves = all updates with the collections reordered), timed end to end over
 *   HTTP, after one small save that compiles the route's schemas (timed apart: a fresh process's
 *   one-time cost). Targets: < 300 ms on SQLite, < 600 ms on PostgreSQL.
 * - read: autocannon on GET /v1/objects?types=card (100 published objects) with the publishable key
 *   and with a secret key, next to a bare node:http server sending the same bytes in the same run.
 *
 * SQLite always; PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a scratch database
 * is created and dropped). Results: bench/results/objects.json and objects.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startFolio } from '../lib/processes.js';

const root = new URL('../..', import.meta.url).pathname;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const SAVE_RUNS = Number(process.env.BENCH_SAVE_RUNS ?? 5);
const CONNECTIONS = 10;
const TARGET_MS = { sqlite: 300, postgres: 600 } as const;

type Kind = keyof typeof TARGET_MS;

async function json(url: string, init: RequestInit & { body?: string } = {}) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const body = (await res.json()) as any;
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.data;
}

function bigSave(round: number) {
  return {
    status: 'published',
    objects: Array.from({ length: 1000 }, (_, i) => ({
      type: 'product',
      id: `p${String(i).padStart(4, '0')}`,
      fields: Object.fromEntries(
        Array.from({ length: 10 }, (_, f) => [`field${f}`, `value ${f} of ${i}, round ${round}`]),
      ),
      collections: Object.fromEntries(
        ['images', 'variants'].map((name) => {
          const items = Array.from({ length: 10 }, (_, j) => ({
            itemId: `${name}-${j}`,
            value: { url: `https://cdn.example.com/${i}/${j}.jpg`, type: name, round },
          }));
          // Re-saves reverse the order: every item's position changes.
          return [name, round % 2 === 0 ? items : items.reverse()];
        }),
      ),
    })),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function cannon(url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  const non2xx = r.non2xx + r.errors;
  return {
    requestsPerSec: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    non2xx,
  };
}

async function benchKind(kind: Kind, env: Record<string, string>) {
  const logDir = mkdtempSync(join(tmpdir(), 'folio-bench-objects-'));
  const server = await startFolio(
    { ...env, CMS_WORKER_ENABLED: 'false', LOG_LEVEL: 'warn' },
    join(logDir, 'folio.log'),
  );
  try {
    const base = server.url;
    const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse battery staple';
    const { project } = await json(`${base}/v1/projects`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Bench', admin: { email, password } }),
    });
    const { token } = await json(`${base}/v1/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    });
    const { key } = await json(`${base}/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'bench', scope: 'all', access: 'write' }),
    });
    const write = { authorization: `Bearer ${key}` };

    // The route's schemas compile on its first request (src/http/lazy-schemas.ts), a one-time cost
    // of a fresh process that used to be paid at start: timed on its own, with one small object of
    // another type, so that the first save measures the inserts.
    const warmUpStarted = performance.now();
    await json(`${base}/v1/objects/save`, {
      method: 'POST',
      headers: write,
      body: JSON.stringify({
        status: 'draft',
        objects: [{ type: 'warmup', id: 'w', fields: { title: 'w' } }],
      }),
    });
    const routeFirstRequestMs = Math.round((performance.now() - warmUpStarted) * 10) / 10;

    // Save: first round inserts everything, the next rounds update everything.
    const runs: { round: number; ms: number; result: unknown }[] = [];
    for (let round = 0; round <= SAVE_RUNS; round++) {
      const body = JSON.stringify(bigSave(round));
      const t0 = performance.now();
      const result = await json(`${base}/v1/objects/save`, { method: 'POST', headers: write, body });
      runs.push({ round, ms: Math.round((performance.now() - t0) * 10) / 10, result });
    }
    const updates = runs
      .slice(1)
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    const save = {
      requestBytes: JSON.stringify(bigSave(0)).length,
      rows: { objects: 1000, fields: 10_000, items: 20_000 },
      routeFirstRequestMs,
      firstSaveInsertMs: runs[0]!.ms,
      resaveUpdateMs: { median: percentile(updates, 50), max: updates[updates.length - 1], all: updates },
      targetMs: TARGET_MS[kind],
      meetsTarget: Math.max(runs[0]!.ms, percentile(updates, 50)) < TARGET_MS[kind],
      lastResult: runs[runs.length - 1]!.result,
    };

    // Reads: 100 published objects of a second type.
    await json(`${base}/v1/objects/save`, {
      method: 'POST',
      headers: write,
      body: JSON.stringify({
        status: 'published',
        objects: Array.from({ length: 100 }, (_, i) => ({
          type: 'card',
          id: `c${i}`,
          fields: {
            title: `Card ${i}`,
            body: 'Lorem ipsum dolor sit amet',
            rank: i,
            live: true,
            seo: { title: `Card ${i}` },
          },
          collections: {
            links: Array.from({ length: 5 }, (_, j) => ({
              itemId: `l${j}`,
              value: { href: `/c/${i}/${j}` },
            })),
          },
        })),
      }),
    });
    const readUrl = `${base}/v1/objects?types=card`;
    const sample = await fetch(readUrl, { headers: { 'x-cms-key': project.apiKey } });
    const bytes = Buffer.from(await sample.arrayBuffer());
    const bare = createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': bytes.length,
      });
      res.end(bytes);
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const barePort = (bare.address() as { port: number }).port;
    const read = {
      responseBytes: bytes.length,
      publishableKey: await cannon(readUrl, { 'x-cms-key': project.apiKey }),
      secretKey: await cannon(readUrl, { authorization: `Bearer ${key}` }),
      bareNodeHttp: await cannon(`http://127.0.0.1:${barePort}/`, {}),
    };
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    return { save, read };
  } finally {
    await server.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
}

async function main() {
  const results: Record<string, unknown> = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: (await import('node:os')).cpus().length,
    durationPerReadScenarioS: DURATION_S,
    connections: CONNECTIONS,
    note: 'Server in its own process; autocannon and the bare server share the bench process.',
    loadAverageAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
  };
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-objects-'));
  try {
    results.sqlite = await benchKind('sqlite', {
      CMS_DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`,
    });
    console.log('sqlite', JSON.stringify(results.sqlite, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const name = `folio_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    const pgDir = mkdtempSync(join(tmpdir(), 'folio-bench-objects-'));
    try {
      results.postgres = await benchKind('postgres', { CMS_DATA_DIR: pgDir, DATABASE_URL: url.toString() });
      console.log('postgres', JSON.stringify(results.postgres, null, 2));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
      rmSync(pgDir, { recursive: true, force: true });
    }
  } else {
    results.postgres = 'skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL';
  }

  results.loadAverageAtEnd = loadavg().map((n) => Math.round(n * 100) / 100);
  const out = join(root, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'objects.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(out, 'objects.md'), markdown(results));
  console.log(`written ${join(out, 'objects.json')} and objects.md`);
}

function markdown(r: Record<string, any>): string {
  const lines = [
    '# Objects bench',
    '',
    `${r.at}, Node ${r.node}, ${r.cpus} cores. Save: one request of 1,000 objects x 10 fields + 2 collections x 10 items`,
    '(10,000 field rows, 20,000 item rows), timed over HTTP. Reads: autocannon, ' +
      `${r.connections} connections, ${r.durationPerReadScenarioS} s each, GET /v1/objects?types=card (100 objects).`,
    '',
    "| database | route's first request (1 object) | first save (inserts) | re-save median (updates) | target | met | read, publishable key | read, secret key | bare node:http, same bytes |",
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const kind of ['sqlite', 'postgres'] as const) {
    const k = r[kind];
    if (typeof k !== 'object') {
      lines.push(`| ${kind} | ${k} | | | | | | | |`);
      continue;
    }
    const rd = (x: any) =>
      `${x.requestsPerSec} req/s, p50 ${x.latencyP50Ms} ms, p99 ${x.latencyP99Ms} ms${x.non2xx ? `, ${x.non2xx} non-2xx` : ''}`;
    lines.push(
      `| ${kind} | ${k.save.routeFirstRequestMs} ms | ${k.save.firstSaveInsertMs} ms | ${k.save.resaveUpdateMs.median} ms | < ${k.save.targetMs} ms | ${k.save.meetsTarget ? 'yes' : 'NO'} | ${rd(k.read.publishableKey)} | ${rd(k.read.secretKey)} | ${rd(k.read.bareNodeHttp)} |`,
    );
  }
  lines.push(
    '',
    `Read response: ${r.sqlite?.read?.responseBytes ?? '?'} bytes. ${r.note}`,
    "The route's first request on a fresh process includes compiling its schemas (on first use since issue 13); the saves come after it.",
    `Load average (1/5/15 min) at start ${r.loadAverageAtStart.join(' / ')}, at end ${r.loadAverageAtEnd.join(' / ')}: ` +
      'on a shared 2-core machine, anything above ~1 means other work competed with the run and the figures are pessimistic.',
    '',
  );
  return lines.join('\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
