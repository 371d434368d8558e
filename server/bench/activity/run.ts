/**
 * `npm run bench:activity`: GET /v1/activity on a project whose log holds BENCH_RECORDS records
 * (default 1,000,000), in process through app.inject, so it times the route, its indexed query and
 * the serialisation. Each query is one page of 50, newest first:
 * the first page, a deep page (a cursor 20,000 records in), and each filter — a common action, a
 * rare action, one target, one actor — plus GET /health as the floor of an inject round trip.
 *
 * SQLite in a temporary directory; BENCH_DATABASE_URL=postgres://… for PostgreSQL (the bench creates
 * and drops its own database). Prints and writes the median and the slowest of BENCH_REQUESTS
 * (default 30) requests per query to bench/results/activity-<db>.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ACTIVITY_ACTIONS } from '../../src/outbox/activity.actions.js';
import { idAt } from '../../src/shared/ids.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const ENTRIES = 10_000;
const ACTORS = 20;
const root = new URL('../..', import.meta.url).pathname;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-activity-'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const dbName = `folio_bench_activity_${process.pid}`;
  let databaseUrl = `sqlite:${join(dir, 'cms.sqlite')}`;
  if (pgUrl) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const config = loadConfig({ DATABASE_URL: databaseUrl, CMS_DATA_DIR: dir, LOG_LEVEL: 'warn' });
  const handle = await openDatabase(config.database);
  try {
    await migrateToLatest(handle.db);
    const app = await buildApp({ config, database: handle });
    await app.ready();
    const email = 'bench@example.com';
    const password = 'bench password 123';
    const created = await app.inject({
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'Activity bench', admin: { email, password } },
    });
    const projectId: string = created.json().data.project.id;
    const token: string = (
      await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } })
    ).json().data.token;

    // A year of records, oldest first; actions weighted like a real log (mostly entry edits).
    const common = ['entry.updated', 'entry.published', 'objects.saved'] as const;
    const t0 = performance.now();
    const span = 300 * 24 * 3600 * 1000;
    const start = Date.now() - span;
    const CHUNK = 2_500;
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < RECORDS; i += CHUNK) {
        const rows = [];
        for (let j = i; j < Math.min(RECORDS, i + CHUNK); j++) {
          const ms = start + Math.floor((j / RECORDS) * span);
          const rare = j % 997 === 0;
          const action = rare ? ACTIVITY_ACTIONS[j % ACTIVITY_ACTIONS.length]! : common[j % common.length]!;
          const actor = j % ACTORS;
          rows.push({
            id: idAt('act', ms),
            projectId,
            at: new Date(ms).toISOString(),
            action,
            actorType: 'user' as const,
            actorId: `usr_actor${String(actor).padStart(2, '0')}`,
            actorName: `editor${actor}@example.com`,
            targetType: 'entry' as const,
            targetId: `ent_target${String(j % ENTRIES).padStart(5, '0')}`,
            summary: `editor${actor}@example.com saved a draft of hero (Hero) on /page-${j % 500}.`,
          });
        }
        await trx.insertInto('activity').values(rows).execute();
      }
    });
    const loadSeconds = (performance.now() - t0) / 1000;
    process.stdout.write(`loaded ${RECORDS} records in ${loadSeconds.toFixed(1)} s\n`);
    if (pgUrl) await sql`analyze`.execute(handle.db);

    const headers = { authorization: `Bearer ${token}` };
    const get = (url: string) => app.inject({ method: 'GET', url, headers });
    // A cursor 20,000 records in: follow pages of 200 from the top.
    let cursor = '';
    for (let i = 0; i < 100; i++) {
      const res = (await get(`/v1/activity?limit=200${cursor ? `&cursor=${cursor}` : ''}`)).json();
      cursor = res.meta.nextCursor;
    }
    const queries: [string, string][] = [
      ['GET /health (inject floor)', '/health'],
      ['first page', '/v1/activity'],
      ['deep page (20,000 in)', `/v1/activity?cursor=${cursor}`],
      ['common action', '/v1/activity?action=entry.published'],
      ['rare action', '/v1/activity?action=webhook.secret_rotated'],
      ['one target', '/v1/activity?targetId=ent_target04242'],
      ['one actor', '/v1/activity?actorId=usr_actor07'],
    ];
    const results = [];
    for (const [name, url] of queries) {
      const warm = await get(url);
      if (warm.statusCode !== 200) throw new Error(`${name}: ${warm.statusCode} ${warm.body.slice(0, 200)}`);
      const rows = url.startsWith('/v1') ? warm.json().data.length : 0;
      for (let i = 0; i < 5; i++) await get(url);
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t = performance.now();
        await get(url);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const result = {
        name,
        rows,
        medianMs: +times[Math.floor(times.length / 2)]!.toFixed(2),
        slowestMs: +times.at(-1)!.toFixed(2),
      };
      process.stdout.write(`${JSON.stringify(result)}\n`);
      results.push(result);
    }
    await app.close();
    const out = join(root, 'bench/results');
    mkdirSync(out, { recursive: true });
    const kind = pgUrl ? 'postgres' : 'sqlite';
    writeFileSync(
      join(out, `activity-${kind}.json`),
      `${JSON.stringify({ date: new Date().toISOString(), db: kind, records: RECORDS, requests: REQUESTS, loadSeconds: +loadSeconds.toFixed(1), results }, null, 2)}\n`,
    );
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
    if (pgUrl) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

await main();
