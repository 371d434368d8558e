import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The real server, from its source (run through tsx like its own tests): no build needed first.
import { buildApp } from '../../../server/src/app.js';
import { loadConfig } from '../../../server/src/config.js';
import { openDatabase } from '../../../server/src/db/connect.js';
import { migrateToLatest } from '../../../server/src/db/migrate.js';

export interface RunningFolio {
  baseUrl: string;
  close(): Promise<void>;
}

/** A real Folio on a fresh SQLite database in a temp directory, listening on a free local port. */
export async function startFolio(): Promise<RunningFolio> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-client-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', CMS_DATA_DIR: dataDir });
  const database = await openDatabase(config.database);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: address,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
