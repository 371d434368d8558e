import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
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
