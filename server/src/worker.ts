// First: it must run before every other module (see the module).
import './process-setup.js';
import pino from 'pino';
import { type Config, loadConfigOrExit } from './config.js';
import { openDatabase } from './db/connect.js';
import { createChangeBus } from './db/dialect/change-bus.js';
import { migrateToLatest, migrationsApplied } from './db/migrate.js';
import { startWorker } from './jobs/worker.js';
import { createMetrics, createReadiness, type OpsServer, startOpsServer } from './modules/health/index.js';
import { countDue } from './modules/schedules/index.js';
import { outboxBacklog } from './outbox/index.js';
import { sealStoredSecrets } from './secrets-at-rest.js';
import { openSecretBox } from './shared/secret-keys.js';
import { exitOnStartupError } from './shared/startup-errors.js';
import { compileCacheStatus } from './start/compile-cache-status.js';

/**
 * Runs the worker alone (`npm run worker`), without HTTP: for deployments that keep delivery and
 * scheduled publishing off the API processes (set CMS_WORKER_ENABLED=false on those). Stops cleanly on
 * SIGTERM/SIGINT, finishing the attempts in flight.
 */
async function main(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  const database = await openDatabase(config.database);
  await migrateToLatest(database.db);
  // The same key as the API processes (CMS_ENCRYPTION_KEY, or the key file in CMS_DATA_DIR); a
  // stored secret it cannot open stops the start here, with the reason.
  const { box: secrets, keyFileCreated } = openSecretBox(config);
  if (keyFileCreated) log.warn(`No CMS_ENCRYPTION_KEY: created the key ${keyFileCreated}`);
  await sealStoredSecrets(database.db, secrets);
  // Scheduled publishing changes content, so every instance's caches must hear of it. PostgreSQL:
  // pg_notify inside the publishing transaction reaches every server's LISTEN connection from any
  // connection, so this worker runs schedules with a bus it never starts (it only notifies). SQLite:
  // the server's caches live in its own process, out of this one's reach, so the server runs them.
  const changes = config.database.kind === 'postgres' ? createChangeBus(config.database) : undefined;
  if (!changes) log.info('SQLite: scheduled publishing runs in the server process, not in this worker');
  // CMS_WORKER_PORT: /health, /health/ready and /metrics for the worker's orchestrator and scraper
  // (src/modules/health/ops-server.ts); off by default. Ready asks only what the worker uses: the
  // database and its migrations.
  const metrics = config.workerPort > 0 ? createMetrics() : undefined;
  const worker = startWorker({
    db: database.db,
    config,
    log,
    secrets,
    onOutcome: metrics?.recordOutcome,
    ...(changes && { changes }),
  });
  log.info({ compileCache: compileCacheStatus() }, 'Folio worker running');
  let ops: OpsServer | undefined;
  if (metrics) {
    metrics.watch({
      pool: database.poolStats,
      outbox: () => outboxBacklog(database.db),
      schedulesDue: () => countDue(database.db, new Date().toISOString()),
    });
    ops = await startOpsServer({
      host: config.host,
      port: config.workerPort,
      version: config.version,
      ping: database.ping,
      readiness: createReadiness(
        { database: database.ping, migrations: () => migrationsApplied(database.db) },
        log,
      ),
      metrics,
      metricsToken: config.metricsToken,
    });
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    log.info(
      `Folio worker: health and metrics running at http://${host}:${ops.port} (/health, /health/ready, /metrics)`,
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: stopping the worker (finishing attempts in flight)`);
    await worker.stop();
    await ops?.close();
    await changes?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

const config = loadConfigOrExit();
main(config).catch((err) => exitOnStartupError('Folio worker could not start', err, config));
