import pino from 'pino';
import { type Config, loadConfigOrExit } from './config.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { startWorker } from './jobs/worker.js';
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
  const worker = startWorker({ db: database.db, config, log });
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
