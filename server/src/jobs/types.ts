import type { Config } from '../config.js';
import type { Db, Tx } from '../db/database.js';
import type { ChangeBus } from '../db/dialect/change-bus.js';
import type { HookClient } from '../shared/hook-http.js';
import type { SecretBox } from '../shared/secret-box.js';
import type { AttemptColumns, AttemptResult } from './attempts.js';

export interface WorkerLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** The snapshot version a GitHub repository dispatch carries; provided by the snapshot module. */
export type SnapshotVersionOf = (db: Db, projectId: string) => Promise<string | null>;

export interface JobContext {
  db: Db;
  config: Config;
  log: WorkerLog;
  client: HookClient;
  /** Opens the webhook and deploy-hook secrets stored sealed. */
  secrets: SecretBox;
  snapshotVersion: SnapshotVersionOf;
  /**
   * Announces content changes the worker makes (scheduled publishing) to every instance's caches and
   * live streams: the app's own bus in a server process; on PostgreSQL, a notify-only bus in the
   * stand-alone worker. Absent: jobs that change content do not run in this worker.
   */
  changes?: ChangeBus;
}

/**
 * A sweep runs as one transaction on a schedule: turn outbox events into deliveries, fire due deploy
 * triggers, prune old records. It returns how many rows it handled; a full batch means "run again
 * right away".
 */
export interface SweepJob {
  name: string;
  everyMs(config: Config): number;
  /** It changes content that caches hold: it runs only in a worker given a change bus (`ctx.changes`). */
  changesContent?: boolean;
  run(ctx: JobContext, now: number): Promise<number>;
}

/** Tables whose rows are attempted over HTTP and retried: they share AttemptColumns. */
export type AttemptTable = 'webhookDeliveries' | 'deploys';

/**
 * An attempt job: rows of `table` are leased in batches, each attempted outside any transaction,
 * then the outcomes are recorded together. `onRecorded` runs in the recording transaction.
 */
export interface AttemptJob<Row extends AttemptColumns = AttemptColumns, Batch = unknown> {
  name: string;
  table: AttemptTable;
  /** Loads what a claimed batch needs in one query (e.g. its webhooks), instead of one per row. */
  prepare(ctx: JobContext, rows: Row[]): Promise<Batch>;
  attempt(ctx: JobContext, row: Row, batch: Batch): Promise<AttemptResult>;
  onRecorded?(trx: Tx, row: Row, result: AttemptResult): Promise<void>;
}
