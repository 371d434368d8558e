import type { DbOrTx } from '../db/database.js';
import { isoAt } from '../shared/time.js';
import {
  type AttemptColumns,
  type AttemptResult,
  type AttemptStatus,
  afterFailure,
  isGone,
} from './attempts.js';
import type { AttemptTable } from './types.js';

/**
 * Records one attempt's outcome (complete / fail / back off). Conditional on the lease the attempt
 * was made under: if the lease ran out and another process claimed the row meanwhile, this stale
 * outcome is dropped instead of overwriting the newer one. Returns false when dropped.
 *
 * A 410 Gone, or a result marked `final`, ends the row at once; otherwise a failure goes back on
 * the retry schedule until it is used up. Returns the status recorded (`pending`: it will be
 * retried), or null when the outcome was dropped.
 */
export async function recordOutcome(
  db: DbOrTx,
  table: AttemptTable,
  row: AttemptColumns,
  lease: string,
  result: AttemptResult,
  scheduleMs: readonly number[],
  now: number = Date.now(),
): Promise<AttemptStatus | null> {
  const next = result.ok
    ? ({ status: 'succeeded' } as const)
    : result.final || isGone(result)
      ? ({ status: 'failed' } as const)
      : afterFailure(scheduleMs, row.scheduleStep, result.retryAfterSeconds, now);
  const updated = await (db as DbOrTx)
    .updateTable(table)
    .set({
      status: next.status,
      attemptCount: row.attemptCount + 1,
      scheduleStep: next.status === 'pending' ? next.scheduleStep : row.scheduleStep,
      nextAttemptAt: next.status === 'pending' ? isoAt(next.nextAttemptAt) : null,
      lockedUntil: null,
      lastAttemptAt: isoAt(now - result.durationMs),
      responseCode: result.responseCode,
      durationMs: result.durationMs,
      error: result.error,
      responseBody: result.responseBody,
      updatedAt: isoAt(now),
    })
    .where('id', '=', row.id)
    .where('lockedUntil', '=', lease)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0 ? next.status : null;
}

/** Retention: finished rows older than the cut-off go; pending ones stay whatever their age. */
export async function pruneFinished(db: DbOrTx, table: AttemptTable, olderThan: string): Promise<number> {
  const result = await db
    .deleteFrom(table)
    .where('createdAt', '<', olderThan)
    .where('status', '!=', 'pending')
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
