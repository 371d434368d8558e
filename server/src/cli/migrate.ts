import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { migrateDown, migrateToLatest } from '../db/migrate.js';
import { exitOnStartupError } from '../shared/startup-errors.js';

/** `npm run migrate` (to latest) or `npm run migrate -- down` (undo the last one). */
const direction = process.argv[2] ?? 'up';
if (direction !== 'up' && direction !== 'down') {
  process.stderr.write('usage: migrate [up|down]\n');
  process.exit(2);
}
let config: ReturnType<typeof loadConfig> | undefined;
try {
  config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    const { results } =
      direction === 'up' ? await migrateToLatest(database.db) : await migrateDown(database.db);
    for (const r of results ?? []) process.stdout.write(`${r.direction} ${r.migrationName}: ${r.status}\n`);
    if (!results?.length) process.stdout.write('Nothing to migrate.\n');
  } finally {
    await database.close();
  }
} catch (err) {
  if (err instanceof ConfigError || !config) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
    process.exit(1);
  }
  exitOnStartupError('Folio could not migrate', err, config);
}
