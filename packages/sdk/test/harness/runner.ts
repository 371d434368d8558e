/**
 * The test runner of `npm test` here and in @folio/react: every *.test.ts(x) of a directory (or those
 * whose path contains an argument), each on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL
 * too; then the plain line "N passed, N failed" that the root runner adds up. A cancelled test (timeout, crash) is a failure. PostgreSQL as in the server's
 * runner: one migrated template that each test database clones, and every database of the run dropped
 * at the end, even those of a file that crashed. @folio/react's runner uses it for its own directory.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { openDatabase } from '../../../../server/src/db/connect.js';
import { migrateToLatest } from '../../../../server/src/db/migrate.js';
import { databaseUrl, withAdminClient } from '../../../../server/test/helpers/db.js';

export async function runTests(dir: string, filter: string[]): Promise<number> {
  const files = readdirSync(dir)
    .filter((name) => /\.test\.tsx?$/.test(name))
    .map((name) => join(dir, name))
    .filter((file) => filter.length === 0 || filter.some((part) => file.includes(part)))
    .sort();
  const runId = randomBytes(4).toString('hex');
  process.env.FOLIO_TEST_RUN_ID = runId;
  const usePostgres = Boolean(process.env.TEST_DATABASE_URL);
  if (usePostgres && files.length > 0) {
    const template = `folio_tpl_${runId}`;
    try {
      await withAdminClient((c) => c.query(`CREATE DATABASE "${template}"`));
    } catch (err) {
      process.stderr.write(`PostgreSQL at TEST_DATABASE_URL is not reachable: ${(err as Error).message}\n`);
      process.stdout.write('0 passed, 1 failed\n');
      return 1;
    }
    const handle = await openDatabase({ kind: 'postgres', url: databaseUrl(template) });
    await migrateToLatest(handle.db);
    await handle.close();
    process.env.FOLIO_TEST_PG_TEMPLATE = template;
  }

  let passed = 0;
  let failed = 0;
  try {
    const stream = run({ files, concurrency: 1, timeout: 180_000 });
    stream.on('test:diagnostic', (event: { message: string; nesting: number }) => {
      const match = /^(pass|fail|cancelled) (\d+)$/.exec(event.message);
      if (match && event.nesting === 0) {
        if (match[1] === 'pass') passed = Number(match[2]);
        else failed += Number(match[2]);
      }
    });
    await new Promise<void>((resolve, reject) => {
      const out = stream.compose(new spec());
      out.pipe(process.stdout, { end: false });
      out.on('end', resolve);
      out.on('error', reject);
    });
  } finally {
    if (usePostgres && files.length > 0) {
      await withAdminClient(async (client) => {
        const { rows } = await client.query<{ datname: string }>(
          'SELECT datname FROM pg_database WHERE datname LIKE $1',
          [`folio_%${runId}%`],
        );
        for (const { datname } of rows)
          await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      });
    }
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  // A filter that matches no file here runs nothing, which is not a failure of this workspace.
  return failed > 0 || (passed === 0 && files.length > 0) ? 1 : 0;
}
