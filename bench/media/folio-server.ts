/**
 * Folio's HTTP app alone (no webhook worker), for the media bench: config from the environment,
 * migrations, listen, then print `LISTENING <url>` for the runner. Stops on SIGTERM.
 */
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

const config = loadConfig();
const database = openDatabase(config.database);
await migrateToLatest(database.db);
const app = await buildApp({ config, database });
const address = await app.listen({ port: config.port, host: config.host });
process.stdout.write(`LISTENING ${address}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
