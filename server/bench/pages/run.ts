/**
 * `npm run bench:pages`: GET /v1/pages for a project of 1,000 pages (target < 20 ms), in process
 * through app.inject, so it times the route, its two grouped queries and the serialisation, not a
 * network. Pages hold PAGES_ENTRIES entries (default 5), half of them drafts.
 *
 * SQLite in a temporary directory; BENCH_DATABASE_URL=postgres://… for PostgreSQL (the bench creates
 * and drops its own database there). Prints the median and the slowest of BENCH_REQUESTS (default 30)
 * requests after a warm-up. A quick timing, not a load test: it runs one request at a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Insertable, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { EntryRow } from '../../src/modules/content/content.table.js';
import type { DefinitionRow } from '../../src/modules/definitions/definitions.table.js';
import { canonicalJson } from '../../src/shared/canonical.js';
import { newId } from '../../src/shared/ids.js';

const PAGES = 1000;
const PER_PAGE = Number(process.env.PAGES_ENTRIES ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-pages-'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const dbName = `folio_bench_pages_${process.pid}`;
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
      payload: { name: 'Pages bench', admin: { email, password } },
    });
    const projectId: string = created.json().data.project.id;
    const token: string = (
      await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } })
    ).json().data.token;

    const now = new Date().toISOString();
    const fields = canonicalJson({ title: 'A title', body: 'Some text' });
    const definitions: Insertable<DefinitionRow>[] = [];
    const entries: Insertable<EntryRow>[] = [];
    for (let p = 0; p < PAGES; p++) {
      for (let i = 0; i < PER_PAGE; i++) {
        const key = { projectId, pageId: `/pages/${p}`, instanceKey: `section-${i}`, componentId: 'Section' };
        definitions.push({
          ...key,
          fields: '[{"key":"title","type":"text"}]',
          position: i,
          createdAt: now,
          updatedAt: now,
        });
        const live = i % 2 === 0;
        entries.push({
          ...key,
          id: newId('ent'),
          fields,
          publishedFields: live ? fields : null,
          publishedAt: live ? now : null,
          createdAt: now,
          updatedAt: now,
          version: live ? 2 : 1,
          publishedVersion: live ? 2 : null,
        });
      }
    }
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < entries.length; i += 500) {
        await trx
          .insertInto('componentDefinitions')
          .values(definitions.slice(i, i + 500))
          .execute();
        await trx
          .insertInto('contentEntries')
          .values(entries.slice(i, i + 500))
          .execute();
      }
    });

    // What autovacuum would do after a bulk load: planner statistics (PostgreSQL; SQLite's planner needs none here).
    if (pgUrl) await sql`analyze`.execute(handle.db);

    const request = () =>
      app.inject({ method: 'GET', url: '/v1/pages', headers: { authorization: `Bearer ${token}` } });
    const warm = await request();
    if (warm.statusCode !== 200 || warm.json().data.length !== PAGES)
      throw new Error(`bad answer: ${warm.body.slice(0, 200)}`);
    for (let i = 0; i < 5; i++) await request();
    const times: number[] = [];
    // CPU time of this process: on a shared machine the wall time includes waiting for a core; with
    // SQLite (in process) the CPU time is close to what the request costs on an idle machine.
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      await request();
      times.push(performance.now() - t0);
    }
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000 / REQUESTS;
    times.sort((a, b) => a - b);
    if (process.env.PAGES_PROBE) {
      const { entryPageSummaries } = await import('../../src/modules/content/content.repository.js');
      const { definitionPageSummaries } = await import(
        '../../src/modules/definitions/definitions.repository.js'
      );
      for (const [name, fn] of [
        ['entries', entryPageSummaries],
        ['definitions', definitionPageSummaries],
      ] as const) {
        const t0 = performance.now();
        for (let i = 0; i < 10; i++) await fn(handle.db, projectId);
        process.stdout.write(`${name}: ${((performance.now() - t0) / 10).toFixed(1)} ms\n`);
      }
      if (pgUrl) {
        for (const text of [
          `select page_id, sum(case when published_fields is not null then 1 else 0 end), sum(case when published_fields is null or published_fields <> fields then 1 else 0 end), max(updated_at) from content_entries where project_id = '${projectId}' group by page_id`,
          `select page_id, count(*), max(updated_at) from component_definitions where project_id = '${projectId}' group by page_id`,
        ]) {
          const plan = await sql.raw<{ 'QUERY PLAN': string }>(`explain analyze ${text}`).execute(handle.db);
          process.stdout.write(`${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
        }
      }
      const t0 = performance.now();
      for (let i = 0; i < 10; i++)
        await app.inject({
          method: 'GET',
          url: '/v1/projects',
          headers: { authorization: `Bearer ${token}` },
        });
      process.stdout.write(
        `GET /v1/projects (auth floor): ${((performance.now() - t0) / 10).toFixed(1)} ms\n`,
      );
    }
    const ms = (v: number | undefined) => `${(v ?? 0).toFixed(1)} ms`;
    process.stdout.write(
      `GET /v1/pages, ${PAGES} pages x ${PER_PAGE} entries, ${pgUrl ? 'postgres' : 'sqlite'}: median ${ms(times[Math.floor(times.length / 2)])}, slowest ${ms(times.at(-1))}, CPU ${ms(cpuMs)} per request (${warm.body.length} bytes)\n`,
    );
    await app.close();
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
    if (pgUrl) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName}`);
      await admin.end();
    }
  }
}

await main();
