/**
 * `npm test`: every test file on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set.
 * PostgreSQL: checks the server answers (an unreachable server fails the run, it never skips),
 * migrates one template database that each test file clones, and drops every database of the run
 * at the end, even those of a file that crashed. Ends with the plain line "N passed, N failed".
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { databaseUrl, withAdminClient } from './helpers/db.js';

const root = new URL('..', import.meta.url).pathname;
const filter = process.argv.slice(2);
/** Test files run one at a time after the others (see runBatch's caller). */
const SOLO = ['test/faults/blast-radius.test.ts'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

async function dropRunDatabases(runId: string): Promise<void> {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`folio_%${runId}%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

async function main(): Promise<number> {
  const runId = randomBytes(4).toString('hex');
  process.env.FOLIO_TEST_RUN_ID = runId;
  // Every optimistic PATCH compares its templated statement with a fresh build (src/db/statement-templates.ts).
  process.env.FOLIO_VERIFY_TEMPLATES = '1';
  const usePostgres = Boolean(process.env.TEST_DATABASE_URL);

  if (usePostgres) {
    const template = `folio_tpl_${runId}`;
    try {
      await withAdminClient((c) => c.query(`CREATE DATABASE "${template}"`));
    } catch (err) {
      process.stderr.write(`PostgreSQL at TEST_DATABASE_URL is not reachable: ${(err as Error).message}\n`);
      return 1;
    }
    const handle = await openDatabase({ kind: 'postgres', url: databaseUrl(template) });
    await migrateToLatest(handle.db);
    await handle.close();
    process.env.FOLIO_TEST_PG_TEMPLATE = template;
  }

  const files = testFiles(join(root, 'test'))
    .concat(testFiles(join(root, 'src')))
    .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
    .sort();
  process.stdout.write(
    `Running ${files.length} test files on ${usePostgres ? 'SQLite and PostgreSQL' : 'SQLite only (set TEST_DATABASE_URL for PostgreSQL)'}\n`,
  );

  let passed = 0;
  let failed = 0;
  /** One run of the node test runner over `batch`, its totals added to the run's. */
  const runBatch = async (batch: string[], concurrency: number): Promise<void> => {
    if (batch.length === 0) return;
    // The timeout is a safety net for a hung file (both databases run inside one file), not a speed
    // check: the fuzz file takes ~3.5 min per database on a machine loaded by other work, so 8 min.
    const stream = run({ files: batch, concurrency, timeout: 480_000 });
    stream.on('test:diagnostic', (event: { message: string; nesting: number }) => {
      // The runner's own totals, reported once at the end; a cancelled test (timeout, crash) is a failure.
      const match = /^(pass|fail|cancelled) (\d+)$/.exec(event.message);
      if (match && event.nesting === 0) {
        if (match[1] === 'pass') passed += Number(match[2]);
        else failed += Number(match[2]);
      }
    });
    await new Promise<void>((resolve, reject) => {
      const out = stream.compose(new spec());
      out.pipe(process.stdout, { end: false });
      out.on('end', resolve);
      out.on('error', reject);
    });
  };
  // Files that measure how a server answers a second client (the blast-radius test: a median under
  // 50 ms while another client attacks) run alone after the rest: beside two other test files on
  // two cores they would measure the other files, not the server.
  const alone = (f: string) => SOLO.some((part) => f.includes(part));
  await runBatch(
    files.filter((f) => !alone(f)),
    3,
  );
  await runBatch(files.filter(alone), 1);

  if (usePostgres) await dropRunDatabases(runId);
  process.stdout.write(`\nfiles: ${files.map((f) => relative(root, f)).length}\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 || passed === 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
