import { type Kysely, type MigrationResultSet, Migrator, sql } from 'kysely';
import { migrations } from './migrations/index.js';

/** The one migrator, used by start-up, `npm run migrate` and the tests. */
function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

function check({ error, results }: MigrationResultSet): MigrationResultSet {
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(
      `${failed ? `Migration ${failed}` : 'Migrating'} failed: ${(error as Error).message ?? error}`,
      {
        cause: error,
      },
    );
  }
  return { results };
}

export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  // Most starts find nothing to do. One query says so; the migrator would take its lock and read
  // its tables in about eight round trips (80 ms of a start on PostgreSQL, issue 13 #2). Anything
  // else (a fresh database, a migration to apply, one this build does not know) is the migrator's.
  if (await upToDate(db)) return { results: [] };
  return check(await migrator(db).migrateToLatest());
}

/** Exactly this build's migrations are recorded as applied; false when that cannot be read. */
async function upToDate(db: Kysely<any>): Promise<boolean> {
  try {
    const applied = await appliedNames(db);
    return applied.length === NAMES.length && applied.every((name) => KNOWN.has(name));
  } catch {
    return false; // no migration table yet
  }
}

export async function migrateDown(db: Kysely<any>): Promise<MigrationResultSet> {
  return check(await migrator(db).migrateDown());
}

const NAMES = Object.keys(migrations);
const KNOWN = new Set(NAMES);

/** The migrations the database records as applied. Rejects when it has no migration table yet. */
async function appliedNames(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Whether every migration of this build has been applied (GET /health/ready). Migrations a newer
 * build added do not make an older instance unready (a rolling deploy). Rejects when the database
 * cannot be asked, or has no migration table yet.
 */
export async function migrationsApplied(db: Kysely<any>): Promise<boolean> {
  const applied = new Set(await appliedNames(db));
  return NAMES.every((name) => applied.has(name));
}
