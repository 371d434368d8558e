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
  return check(await migrator(db).migrateToLatest());
}

export async function migrateDown(db: Kysely<any>): Promise<MigrationResultSet> {
  return check(await migrator(db).migrateDown());
}

const NAMES = Object.keys(migrations);

/**
 * Whether every migration of this build has been applied (GET /health/ready): one count on the
 * migrator's primary key. Rejects when the database cannot be asked, or has no migration table yet.
 */
export async function migrationsApplied(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from kysely_migration where name in (${sql.join(NAMES)})`.execute(db);
  return Number(rows[0]?.n) === NAMES.length;
}
