/**
 * Folio's HTTP app for the content bench: config from the environment, listen, then print
 * `LISTENING <url>` for the runner (the runner has migrated and seeded the database). Stops on SIGTERM.
 */
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';

const config = loadConfig();
const database = openDatabase(config.database);
const app = await buildApp({ config, database });
const address = await app.listen({ port: config.port, host: config.host });
process.stdout.write(`LISTENING ${address}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
