import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export type DbKind = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (as `npm test` and CI do). */
export function dbKinds(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** For a second app instance on the same database (PostgreSQL) or file (SQLite). */
  config: Parameters<typeof openDatabase>[0];
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file. PostgreSQL: a new database cloned from the template
 * that test/run.ts migrated once (CREATE DATABASE … TEMPLATE is a file copy, far quicker than
 * migrating each time); without a template, it migrates. SQLite: a new file in a temp directory.
 */
export async function createTestDatabase(kind: DbKind): Promise<TestDatabase> {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  if (kind === 'sqlite') {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'folio-test-'));
    const config = { kind: 'sqlite' as const, file: join(dir, 'test.sqlite') };
    const handle = await openDatabase(config);
    await migrateToLatest(handle.db);
    return {
      handle,
      config,
      drop: async () => {
        await handle.close().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  const prefix = process.env.FOLIO_TEST_RUN_ID ? `folio_t_${process.env.FOLIO_TEST_RUN_ID}` : 'folio_t';
  const name = `${prefix}_${suffix}`;
  const template = process.env.FOLIO_TEST_PG_TEMPLATE;
  await withAdminClient((c) =>
    c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`),
  );
  const config = { kind: 'postgres' as const, url: databaseUrl(name) };
  const handle = await openDatabase(config);
  if (!template) await migrateToLatest(handle.db);
  return {
    handle,
    config,
    drop: async () => {
      await handle.close().catch(() => {});
      await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
