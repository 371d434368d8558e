/**
 * `npm run bench:schedules`: how late scheduled publishes run (contract §9: at most
 * CMS_WORKER_POLL_MS + 1 s after `at`), with the worker at its default poll (500 ms), when 1, 100
 * and 1,000 schedules fall due at the same moment, each publishing its own entry.
 *
 * Lateness is `executedAt - at` as the worker recorded it. The baseline, in the same run and on the
 * same database: the same publishes made directly through the content service, one transaction each
 * (what the manual route does), without the schedule's claim, checks and bookkeeping; the time it
 * takes to publish N entries is the floor under the lateness of the N-th schedule.
 *
 * SQLite in a temporary directory; BENCH_DATABASE_URL (or TEST_DATABASE_URL) =postgres://… adds
 * PostgreSQL (the bench creates and drops its own database there). Results:
 * bench/results/schedules.json and schedules.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Insertable } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { startWorker } from '../../src/jobs/worker.js';
import { createContentService } from '../../src/modules/content/content.service.js';
import type { EntryRow } from '../../src/modules/content/content.table.js';
import { declarationsOf } from '../../src/modules/definitions/definitions.service.js';
import type { ScheduleRow } from '../../src/modules/schedules/schedules.table.js';
import { outbox } from '../../src/outbox/index.js';
import { canonicalJson } from '../../src/shared/canonical.js';
import { newId } from '../../src/shared/ids.js';
import { isoAt } from '../../src/shared/time.js';

const root = new URL('../..', import.meta.url).pathname;
const SIZES = [1, 100, 1000];
const POLL_MS = 500;
const quiet = { info() {}, warn() {}, error: (obj: unknown) => console.error(obj) };

interface Scenario {
  schedules: number;
  latenessMs: { p50: number; p99: number; max: number };
  baselinePublishMs: number;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function runKind(kind: 'sqlite' | 'postgres', pgUrl?: string): Promise<Scenario[]> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-schedules-'));
  const dbName = `folio_bench_schedules_${process.pid}`;
  let databaseUrl = `sqlite:${join(dir, 'cms.sqlite')}`;
  if (kind === 'postgres' && pgUrl) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    CMS_DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    CMS_WORKER_POLL_MS: String(POLL_MS),
  });
  const handle = await openDatabase(config.database);
  const results: Scenario[] = [];
  try {
    await migrateToLatest(handle.db);
    const app = await buildApp({ config, database: handle });
    await app.ready();
    const email = 'bench@example.com';
    const created = await app.inject({
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'Schedules bench', admin: { email, password: 'bench password 123' } },
    });
    const { project, admin } = created.json().data as { project: { id: string }; admin: { id: string } };
    const content = createContentService(handle.db, outbox, app.changes, { declarationsOf });
    const worker = startWorker({ db: handle.db, config, log: quiet, changes: app.changes });
    try {
      for (const size of SIZES) {
        // Two sets of draft entries, one page each: one for the baseline, one for the schedules.
        const seed = (label: string) => {
          const now = new Date().toISOString();
          return Array.from(
            { length: size },
            (_, i): Insertable<EntryRow> => ({
              id: newId('ent'),
              projectId: project.id,
              pageId: `/${label}-${size}`,
              instanceKey: `k${i}`,
              componentId: 'Section',
              fields: canonicalJson({ title: `${label} ${i}` }),
              publishedFields: null,
              publishedAt: null,
              createdAt: now,
              updatedAt: now,
              version: 1,
              publishedVersion: null,
              sharedVersion: 0,
            }),
          );
        };
        const base = seed('baseline');
        const scheduled = seed('scheduled');
        for (const rows of [base, scheduled]) {
          for (let i = 0; i < rows.length; i += 500)
            await handle.db
              .insertInto('contentEntries')
              .values(rows.slice(i, i + 500))
              .execute();
        }

        const actor = { type: 'user' as const, id: admin.id, email };
        const t0 = performance.now();
        for (const e of base)
          await content.update(project.id, e.id as string, { status: 'published' }, actor);
        const baselinePublishMs = performance.now() - t0;

        // Rows as POST /v1/schedules writes them (a thousand requests would only time the route).
        const at = isoAt(Date.now() + 1500);
        const rows: ScheduleRow[] = scheduled.map((e) => ({
          id: newId('sch'),
          projectId: project.id,
          action: 'publish',
          entryId: e.id as string,
          pageId: null,
          targetPageId: e.pageId,
          at,
          status: 'pending',
          createdBy: admin.id,
          createdByEmail: email,
          createdAt: isoAt(Date.now()),
          executedAt: null,
          error: null,
          problems: null,
          locale: null,
        }));
        for (let i = 0; i < rows.length; i += 500)
          await handle.db
            .insertInto('schedules')
            .values(rows.slice(i, i + 500))
            .execute();
        const ids = rows.map((r) => r.id);
        let done: { executedAt: string | null; status: string }[] = [];
        const deadline = Date.now() + 120_000;
        for (;;) {
          done = await handle.db
            .selectFrom('schedules')
            .select(['executedAt', 'status'])
            .where('id', 'in', ids)
            .execute();
          if (done.every((r) => r.status !== 'pending')) break;
          if (Date.now() > deadline) throw new Error('schedules did not run');
          await new Promise((r) => setTimeout(r, 50));
        }
        if (done.some((r) => r.status !== 'done')) throw new Error('a schedule failed');
        const lateness = done
          .map((r) => Date.parse(r.executedAt as string) - Date.parse(at))
          .sort((a, b) => a - b);
        if ((lateness[0] ?? 0) < 0) throw new Error('a schedule ran early');
        results.push({
          schedules: size,
          latenessMs: { p50: pct(lateness, 0.5), p99: pct(lateness, 0.99), max: lateness.at(-1) ?? 0 },
          baselinePublishMs: Math.round(baselinePublishMs),
        });
        process.stdout.write(`${kind} ${size}: ${JSON.stringify(results.at(-1))}\n`);
      }
    } finally {
      await worker.stop();
      await app.close();
    }
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
    if (kind === 'postgres' && pgUrl) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName}`);
      await admin.end();
    }
  }
  return results;
}

function markdown(results: Record<string, Scenario[] | string>): string {
  const lines = [
    '# Scheduled publishing bench',
    '',
    `Worker at CMS_WORKER_POLL_MS=${POLL_MS} in the bench process with the app; N schedules due at the same moment, each publishing its own draft entry. Lateness: \`executedAt - at\` (contract: at most the poll interval + 1 s). Baseline: the same N publishes through the content service, one transaction each, no worker.`,
    '',
    '| database | schedules due at once | lateness p50 | p99 | max | baseline: N publishes |',
    '|---|---|---|---|---|---|',
  ];
  for (const [kind, rows] of Object.entries(results)) {
    if (typeof rows === 'string') {
      lines.push(`| ${kind} | ${rows} | | | | |`);
      continue;
    }
    for (const r of rows) {
      lines.push(
        `| ${kind} | ${r.schedules} | ${r.latenessMs.p50} ms | ${r.latenessMs.p99} ms | ${r.latenessMs.max} ms | ${r.baselinePublishMs} ms |`,
      );
    }
  }
  lines.push(
    '',
    `Run ${new Date().toISOString()} on Node ${process.version}, ${cpus().length} CPUs, load average ${loadAtStart} at the start (a machine shared with other work: the figures are upper bounds).`,
    '',
  );
  return lines.join('\n');
}

const loadAtStart = loadavg()[0]?.toFixed(1);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const results: Record<string, Scenario[] | string> = { sqlite: await runKind('sqlite') };
results.postgres = pgUrl
  ? await runKind('postgres', pgUrl)
  : 'skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL';
const out = join(root, 'bench/results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'schedules.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(out, 'schedules.md'), markdown(results));
process.stdout.write(markdown(results));
