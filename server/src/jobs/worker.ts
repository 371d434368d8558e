import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { ChangeBus } from '../db/dialect/change-bus.js';
import { claimDueAttempts } from '../db/dialect/claim.js';
import { isDatabaseUnavailable } from '../db/dialect/unavailable.js';
import { createHookClient } from '../shared/hook-http.js';
import type { SecretBox } from '../shared/secret-box.js';
import { openSecretBox } from '../shared/secret-keys.js';
import { isoAt } from '../shared/time.js';
import {
  type AttemptColumns,
  type AttemptResult,
  type AttemptStatus,
  failedAttempt,
  failedAttemptLog,
} from './attempts.js';
import { attemptJobs, snapshotVersionOf, sweepJobs } from './handlers.js';
import { recordOutcome } from './queue.js';
import type { AttemptJob, AttemptTable, JobContext, WorkerLog } from './types.js';

export interface WorkerOptions {
  db: Db;
  config: Config;
  log: WorkerLog;
  /**
   * Opens stored secrets. Entry points pass the box they checked at start (src/secrets-at-rest.ts);
   * without one, the worker opens the configured key itself (CMS_ENCRYPTION_KEY or the key file).
   */
  secrets?: SecretBox;
  /**
   * Called once per recorded attempt outcome, after its transaction commits (/metrics counts them):
   * `succeeded`, `pending` (failed, will be retried) or `failed` (for good).
   */
  onOutcome?: (table: AttemptTable, status: AttemptStatus) => void;
  /**
   * Where content changes are announced (JobContext.changes): a server passes its app's bus. Without
   * one, scheduled publishing is left to the workers that have one.
   */
  changes?: ChangeBus;
  /**
   * Only the jobs that change content (scheduled publishing): a SQLite server whose deliveries run in
   * a stand-alone worker (CMS_WORKER_ENABLED=false) still runs its schedules, since only it can drop
   * its own caches.
   */
  contentJobsOnly?: boolean;
}

export interface Worker {
  /** Stops claiming, waits for attempts in flight and records their outcomes. */
  stop(): Promise<void>;
  /** Ticks run so far, and how many of them failed: what a test waits on instead of a sleep. */
  readonly ticks: { readonly run: number; readonly failed: number };
}

const FLUSH_DELAY_MS = 5;
/** Longest wait between polls while ticks keep failing (a database outage). */
const MAX_BACKOFF_MS = 30_000;
/** While the database stays down, one reminder line per this long. */
const OUTAGE_LOG_EVERY_MS = 60_000;

interface Outcome {
  job: AttemptJob;
  row: AttemptColumns;
  lease: string;
  result: AttemptResult;
}

/**
 * The outbox/job loop. Each tick runs the due sweeps (run due schedules, dispatch events, fire deploy
 * triggers, prune), then tops up every attempt job to `workerBatchSize` attempts in flight: rows are
 * leased in one statement, sent outside any transaction, and their outcomes recorded in batches as
 * they come back.
 * A slow receiver holds only its own slot, never the batch. Safe to run in several processes: claims
 * never overlap (src/db/dialect/claim.ts) and a crashed process's leases expire.
 *
 * The first tick waits one poll interval, so a process that starts and dies at once claims nothing.
 */
export function startWorker(options: WorkerOptions): Worker {
  const { db, config, log } = options;
  const client = createHookClient({
    timeoutMs: config.webhookTimeoutMs,
    allowPrivate: config.allowPrivateHookTargets,
  });
  const ctx: JobContext = {
    db,
    config,
    log,
    client,
    secrets: options.secrets ?? openSecretBox(config).box,
    snapshotVersion: snapshotVersionOf,
    ...(options.changes && { changes: options.changes }),
  };
  const contentJobsOnly = options.contentJobsOnly === true;

  let stopping = false;
  let wakeUp: (() => void) | null = null;
  const lastSweep = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<void>>();
  const outcomes: Outcome[] = [];
  let flushing: Promise<void> | null = null;

  const wake = () => wakeUp?.();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  async function flush(): Promise<void> {
    const batch = outcomes.splice(0);
    try {
      const recorded: [AttemptTable, AttemptStatus][] = [];
      await db.transaction().execute(async (trx) => {
        const now = Date.now();
        for (const o of batch) {
          const status = await recordOutcome(
            trx,
            o.job.table,
            o.row,
            o.lease,
            o.result,
            config.webhookRetryScheduleMs,
            now,
          );
          if (status) {
            recorded.push([o.job.table, status]);
            await o.job.onRecorded?.(trx, o.row, o.result);
          }
        }
      });
      if (options.onOutcome) for (const [table, status] of recorded) options.onOutcome(table, status);
    } catch (err) {
      // The rows stay leased and are attempted again once the lease runs out: late, never lost.
      if (isDatabaseUnavailable(err)) {
        log.warn(
          { error: (err as Error).message },
          'worker: recording attempt outcomes failed: database unavailable',
        );
      } else log.error({ err }, 'worker: recording attempt outcomes failed');
    } finally {
      for (const o of batch) inFlight.set(o.job.name, (inFlight.get(o.job.name) ?? 1) - 1);
    }
  }

  function scheduleFlush(): void {
    if (flushing) return;
    // Outcomes arriving close together are recorded in one transaction: a short pause costs a few
    // milliseconds of lease, and saves a commit per delivery.
    flushing = new Promise<void>((resolve) => setTimeout(resolve, FLUSH_DELAY_MS)).then(flush).finally(() => {
      flushing = null;
      if (outcomes.length > 0) scheduleFlush();
      wake();
    });
  }

  function launch(job: AttemptJob, row: AttemptColumns, lease: string, batch: unknown): void {
    const attempt = job
      .attempt(ctx, row, batch)
      .catch((err: unknown) => failedAttempt(`internal error: ${(err as Error).message}`))
      .then((result) => {
        if (!result.ok) {
          const line = failedAttemptLog(row, result, config.webhookRetryScheduleMs);
          log.warn({ job: job.name, ...line.fields }, `${job.name}: ${line.message}`);
        }
        outcomes.push({ job, row, lease, result });
        scheduleFlush();
      });
    running.add(attempt);
    void attempt.finally(() => running.delete(attempt));
  }

  /** One pass; true when there is more work right now (a full batch somewhere). */
  async function tick(): Promise<boolean> {
    let busy = false;
    for (const job of sweepJobs) {
      if (job.changesContent ? !ctx.changes : contentJobsOnly) continue;
      const now = Date.now();
      if (now - (lastSweep.get(job.name) ?? 0) < job.everyMs(config)) continue;
      const handled = await job.run(ctx, now);
      // A full batch runs again on the next pass instead of waiting for its interval.
      lastSweep.set(job.name, handled >= config.workerBatchSize ? 0 : now);
      if (handled >= config.workerBatchSize) busy = true;
    }
    for (const job of attemptJobs) {
      if (stopping || contentJobsOnly) break;
      const free = config.workerBatchSize - (inFlight.get(job.name) ?? 0);
      if (free <= 0) continue;
      const now = Date.now();
      const lease = isoAt(now + config.workerLeaseMs);
      const rows = await claimDueAttempts<AttemptColumns>(db, job.table, free, isoAt(now), lease);
      inFlight.set(job.name, (inFlight.get(job.name) ?? 0) + rows.length);
      if (rows.length > 0) {
        let batch: unknown;
        try {
          batch = await job.prepare(ctx, rows);
        } catch (err) {
          // The rows stay leased until the lease runs out; their slots must not stay taken.
          inFlight.set(job.name, (inFlight.get(job.name) ?? 0) - rows.length);
          throw err;
        }
        for (const row of rows) launch(job, row, lease, batch);
      }
      if (rows.length === free) busy = true;
    }
    return busy;
  }

  /**
   * Failing ticks back off: the wait doubles from the poll interval up to 64 of them (at most 30 s),
   * so an outage is neither hammered nor logged twice a second. An unreachable database is one warn
   * line when it starts, a reminder a minute, and one line when it is back; other failures are bugs
   * and keep their stack.
   */
  const maxBackoff = Math.max(config.workerPollMs, Math.min(MAX_BACKOFF_MS, config.workerPollMs * 64));
  let failures = 0;
  const ticks = { run: 0, failed: 0 };
  let outageSince: number | null = null;
  let outageLoggedAt = 0;
  function tickFailed(err: unknown): void {
    failures += 1;
    if (!isDatabaseUnavailable(err)) {
      log.error({ err }, 'worker: tick failed');
      return;
    }
    const now = Date.now();
    if (outageSince === null) {
      outageSince = now;
      outageLoggedAt = now;
      log.warn(
        { error: (err as Error).message },
        'worker: database unavailable; backing off until it is back',
      );
    } else if (now - outageLoggedAt >= OUTAGE_LOG_EVERY_MS) {
      outageLoggedAt = now;
      const seconds = Math.round((now - outageSince) / 1000);
      log.warn(
        { error: (err as Error).message, seconds },
        `worker: database still unavailable after ${seconds} s`,
      );
    }
  }
  function tickSucceeded(): void {
    if (outageSince !== null) {
      log.info(
        { seconds: Math.round((Date.now() - outageSince) / 1000) },
        'worker: database is back; resuming',
      );
    }
    failures = 0;
    outageSince = null;
  }
  const nextWait = () =>
    failures === 0 ? config.workerPollMs : Math.min(maxBackoff, config.workerPollMs * 2 ** (failures - 1));

  const loop = (async () => {
    await sleep(config.workerPollMs);
    while (!stopping) {
      let busy = false;
      try {
        busy = await tick();
        tickSucceeded();
      } catch (err) {
        ticks.failed += 1;
        tickFailed(err);
      }
      ticks.run += 1;
      if (!busy && !stopping) await sleep(nextWait());
    }
    await Promise.allSettled([...running]);
    while (flushing) await flushing;
  })();

  return {
    async stop() {
      stopping = true;
      wake();
      await loop;
      client.close();
    },
    ticks,
  };
}
