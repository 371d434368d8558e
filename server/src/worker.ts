import pino from 'pino';
import { type Config, loadConfigOrExit } from './config.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { startWorker } from './jobs/worker.js';
import { sealStoredSecrets } from './secrets-at-rest.js';
import { openSecretBox } from './shared/secret-keys.js';
import { exitOnStartupError } from './shared/startup-errors.js';

/**
 * Runs the webhook/deploy worker alone (`npm run worker`), without HTTP: for deployments that keep
 * delivery off the API processes (set CMS_WORKER_ENABLED=false on those). Stops cleanly on
 * SIGTERM/SIGINT, finishing the attempts in flight.
 */
async function main(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  // The same key as the API processes (CMS_ENCRYPTION_KEY, or the key file in CMS_DATA_DIR); a
  // stored secret it cannot open stops the start here, with the reason.
  const { box: secrets, keyFileCreated } = openSecretBox(config);
  if (keyFileCreated) log.warn(`No CMS_ENCRYPTION_KEY: created the key ${keyFileCreated}`);
  await sealStoredSecrets(database.db, secrets);
  const worker = startWorker({ db: database.db, config, log, secrets });
  log.info('Folio worker running');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: stopping the worker (finishing attempts in flight)`);
    await worker.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

const config = loadConfigOrExit();
main(config).catch((err) => exitOnStartupError('Folio worker could not start', err, config));
