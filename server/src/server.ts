// First: it must run before every other module (see the module).
import './process-setup.js';
import { buildApp } from './app.js';
import { type Config, loadConfigOrExit } from './config.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { lockSqliteDatabase } from './db/sqlite-lock.js';
import { startWorker, type Worker } from './jobs/worker.js';
import { createMetrics } from './modules/health/index.js';
import { exitOnStartupError } from './shared/startup-errors.js';
import { compileCacheStatus } from './start/compile-cache-status.js';

/** Starts Folio: config, database and migrations, HTTP; stops cleanly on SIGTERM/SIGINT. */
async function main(config: Config): Promise<void> {
  // One server per SQLite file (its caches are not shared); the stand-alone worker may run beside it.
  const file =
    config.database.kind === 'sqlite' && config.database.file !== ':memory:' ? config.database.file : null;
  const lock = file ? await lockSqliteDatabase(file) : undefined;
  if (lock === null) {
    process.stderr.write(
      `Folio is already running on ${file} (another server holds ${file}.lock); one server per SQLite database, use PostgreSQL for several.\n`,
    );
    process.exit(1);
  }

  const database = await openDatabase(config.database);
  await migrateToLatest(database.db);
  // One metrics registry for the process: the API and its in-process worker count into it.
  const metrics = createMetrics();
  const app = await buildApp({ config, database, metrics });

  // The worker runs in every server process unless CMS_WORKER_ENABLED=false (then run `npm run
  // worker` separately); several processes share the work safely. It gets the app's change bus, so
  // scheduled publishes drop this app's caches. On SQLite only this process can drop them, so it runs
  // the schedules even when deliveries are left to a stand-alone worker.
  let worker: Worker | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: closing (finishing requests in flight)`);
    // close() stops accepting connections and resolves once requests in flight have been answered.
    await app.close();
    await worker?.stop();
    await database.close();
    lock?.release();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const workerOptions = {
    db: database.db,
    config,
    log: app.log,
    changes: app.changes,
    onOutcome: metrics.recordOutcome,
  };
  if (config.workerEnabled) worker = startWorker(workerOptions);
  else if (config.database.kind === 'sqlite')
    worker = startWorker({ ...workerOptions, contentJobsOnly: true });
  const where = config.database.kind === 'postgres' ? 'PostgreSQL' : `SQLite (${config.database.file})`;
  // How this start got its compiled code (src/start/run-bundle.ts); absent when not run from dist/.
  app.log.info({ compileCache: compileCacheStatus() }, `Folio ${config.version} on ${where}`);
  process.stdout.write(
    `\nFolio is running at ${address}\n  Dashboard:     ${address}/admin\n  API reference: ${address}/docs\n\n`,
  );
}

const config = loadConfigOrExit();
main(config).catch((err) => exitOnStartupError('Folio could not start', err, config));
