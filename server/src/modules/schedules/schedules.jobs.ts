import type { DbOrTx, Tx } from '../../db/database.js';
import { type ChangeBus, transactionWithChanges } from '../../db/dialect/change-bus.js';
import { databaseNow, dialectOf } from '../../db/dialect/index.js';
import { isDatabaseUnavailable } from '../../db/dialect/unavailable.js';
import type { JobContext, SweepJob } from '../../jobs/types.js';
import { AppError } from '../../shared/errors.js';
import type { SystemActor } from '../../shared/principals.js';
import { isoAt } from '../../shared/time.js';
import * as repo from './schedules.repository.js';
import type { ScheduleTargets } from './schedules.service.js';
import type { ScheduleRow } from './schedules.table.js';

type Changed = (topic: string, key: string) => Promise<void>;

/**
 * Schedules one PostgreSQL worker runs side by side, each in its own transaction on its own pooled
 * connection (10 per process, shared with the API in a server): a schedule's cost is mostly its
 * commit, and commits of different connections overlap. SQLite has one writer, so one at a time.
 * Schedules of one page never run side by side (the claim orders them).
 */
const PG_LANES = 4;

/**
 * What running a schedule needs of other modules, handed over in jobs/handlers.ts: content's
 * in-transaction operations (each writes history, the event, the activity record and the cache
 * invalidations, as the manual action does), its targets, and whether the creator may still publish.
 */
export interface ScheduledWork {
  content: {
    publishEntryIn(
      trx: Tx,
      changed: Changed,
      projectId: string,
      entryId: string,
      actor: SystemActor,
      locale?: string,
    ): Promise<unknown>;
    unpublishIn(
      trx: Tx,
      changed: Changed,
      projectId: string,
      entryId: string,
      actor: SystemActor,
      locale?: string,
    ): Promise<unknown>;
    bulkPublishIn(
      trx: Tx,
      changed: Changed,
      projectId: string,
      pageId: string,
      actor: SystemActor,
      locale?: string,
    ): Promise<unknown>;
  };
  targets: ScheduleTargets;
  mayPublish(db: DbOrTx, accountId: string, projectId: string): Promise<boolean>;
}

/**
 * Runs due schedules (contract §9): at `at`, never before, within a poll of it, exactly once.
 *
 * Exactly once by construction, not by bookkeeping: each schedule runs in ONE transaction that claims
 * its row (locked; PostgreSQL skips rows another worker holds), checks it is still pending, that the
 * creator is still an editor or admin and the target still exists, performs the publish or unpublish
 * with a `system` actor on the creator's behalf, and marks the schedule `done`. Commit makes all of it
 * visible at once; a crash or a lost connection anywhere rolls all of it back, and the row is due again
 * for whichever worker looks next. Rejected: a lease like the webhook attempts' (claim, act, record in
 * separate steps), which needs the action to be idempotent or leaves a window where it ran but is not
 * marked; nothing here is slow or leaves the database, so one transaction is the simpler guarantee.
 *
 * The clock: a schedule is due when both the database's clock and this process's have reached `at`
 * (read once per sweep). The database's is the one every instance shares, so an instance whose clock
 * runs ahead cannot run anything early; this process's too, so every timestamp the run writes
 * (`executedAt`, `publishedAt`, history, activity: this process's clock) is at or after `at`.
 *
 * Latency: the sweep runs on every poll (CMS_WORKER_POLL_MS), first in the worker's tick, and loops
 * until nothing due remains (a full batch runs again at once): a schedule runs at most a poll interval
 * plus the time of one tick after `at`, and when many fall due at once, plus the time to run those
 * before it (bench/schedules: results/schedules.md). Each page's schedules run in `at` order, even
 * across workers (repository: claimDueSchedule).
 *
 * A schedule that cannot run (creator lost the role, target gone) ends `failed` with `error`, and
 * nothing else changes. Errors: a database outage stops the sweep (the worker backs off; the rows stay
 * due); an AppError from the content operation is a definite failure (`failed`, in a new transaction);
 * anything else (a deadlock, a bug) is logged and the schedule is tried again at the next poll, left out
 * of this sweep so it cannot hold the ones behind it.
 */
export function runDueSchedules(work: ScheduledWork): SweepJob {
  function actorOf(row: ScheduleRow): SystemActor {
    return { type: 'system', onBehalfOf: { id: row.createdBy, email: row.createdByEmail } };
  }

  /** Why the schedule cannot run now, or null. */
  async function obstacle(trx: Tx, row: ScheduleRow): Promise<string | null> {
    if (!(await work.mayPublish(trx, row.createdBy, row.projectId))) {
      return `${row.createdByEmail} is no longer an editor or admin of this project.`;
    }
    if (row.entryId !== null) {
      if (!(await work.targets.entry(trx, row.projectId, row.entryId))) return 'The entry no longer exists.';
    } else if (row.pageId !== null && !(await work.targets.pageExists(trx, row.projectId, row.pageId))) {
      return 'The page no longer exists (it has no entries and no definitions).';
    }
    return null;
  }

  async function act(trx: Tx, changed: Changed, row: ScheduleRow): Promise<void> {
    const actor = actorOf(row);
    // The locale it was made for (§14); a locale removed since fails it (400 from content).
    const locale = row.locale ?? undefined;
    if (row.entryId === null) {
      await work.content.bulkPublishIn(trx, changed, row.projectId, row.pageId as string, actor, locale);
    } else if (row.action === 'publish') {
      await work.content.publishEntryIn(trx, changed, row.projectId, row.entryId, actor, locale);
    } else {
      await work.content.unpublishIn(trx, changed, row.projectId, row.entryId, actor, locale);
    }
  }

  /** Never before the cut-off the row was claimed by, even if this process's clock steps back. */
  const executedAt = (cutoff: string): string => {
    const now = isoAt(Date.now());
    return now > cutoff ? now : cutoff;
  };

  /** Runs the next due schedule; false when none is left. Logs once its outcome is committed. */
  async function runNext(
    ctx: JobContext,
    changes: ChangeBus,
    cutoff: string,
    skip: string[],
  ): Promise<boolean> {
    let claimed: ScheduleRow | undefined;
    let error: string | null = null;
    try {
      const ran = await transactionWithChanges(ctx.db, changes, async (trx, changed) => {
        claimed = await repo.claimDueSchedule(trx, cutoff, skip);
        if (!claimed) return false;
        error = await obstacle(trx, claimed);
        if (!error) await act(trx, changed, claimed);
        await repo.finishSchedule(trx, claimed.id, {
          status: error ? 'failed' : 'done',
          executedAt: executedAt(cutoff),
          error,
        });
        return true;
      });
      if (ran) logOutcome(ctx, claimed as ScheduleRow | undefined, error);
      return ran;
    } catch (err) {
      if (!claimed || isDatabaseUnavailable(err)) throw err;
      skip.push(claimed.id);
      if (err instanceof AppError) {
        // Rules refused a publish (422): the problems are kept beside the sentence (contract §17).
        const problems = err.code === 'unpublishable' ? JSON.stringify(err.details) : null;
        await repo.failPending(ctx.db, claimed.id, executedAt(cutoff), err.message, problems);
        logOutcome(ctx, claimed, err.message);
      } else {
        ctx.log.error(
          { err, scheduleId: claimed.id },
          'worker: a schedule could not run; trying again at the next poll',
        );
      }
      return true;
    }
  }

  function logOutcome(ctx: JobContext, row: ScheduleRow | undefined, error: string | null): void {
    if (!row) return;
    const fields = { scheduleId: row.id, projectId: row.projectId, action: row.action, at: row.at };
    if (error) ctx.log.warn({ ...fields, error }, 'worker: a schedule failed');
    else ctx.log.info(fields, 'worker: ran a schedule');
  }

  return {
    name: 'run-schedules',
    everyMs: (config) => config.workerPollMs,
    changesContent: true,
    async run(ctx) {
      const changes = ctx.changes;
      if (!changes) return 0;
      // Most polls find nothing due: one indexed read then, and no write transaction (which on
      // SQLite would take the database's write lock twice a second). Nothing is due by the cut-off
      // below when nothing is by this process's clock, since the cut-off is never later.
      const processNow = isoAt(Date.now());
      if (!(await repo.anyDue(ctx.db, processNow))) return 0;
      const dbNow = await databaseNow(ctx.db);
      const cutoff = dbNow < processNow ? dbNow : processNow;
      const skip: string[] = [];
      let handled = 0;
      const lane = async () => {
        while (handled < ctx.config.workerBatchSize && (await runNext(ctx, changes, cutoff, skip)))
          handled += 1;
      };
      // Every lane ends before the sweep does (an outage in one must not leave the others running
      // into the next tick); then the first failure is the sweep's.
      const lanes = Array.from({ length: dialectOf(ctx.db) === 'postgres' ? PG_LANES : 1 }, lane);
      const failed = (await Promise.allSettled(lanes)).find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return handled;
    },
  };
}
