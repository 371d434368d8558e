import type { DbOrTx, Tx } from '../../db/database.js';
import { claimFirst } from '../../db/dialect/claim.js';
import type { ScheduleRow, ScheduleStatus } from './schedules.table.js';

export const insertSchedule = async (db: DbOrTx, row: ScheduleRow): Promise<void> => {
  await db.insertInto('schedules').values(row).execute();
};

export const findSchedule = (db: DbOrTx, projectId: string, id: string): Promise<ScheduleRow | undefined> =>
  db
    .selectFrom('schedules')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();

/** Pending schedules by time, (at, id) after `after`; `limit` rows at most. */
export function pendingSchedules(
  db: DbOrTx,
  projectId: string,
  after: { at: string; id: string } | undefined,
  limit: number,
): Promise<ScheduleRow[]> {
  let query = db
    .selectFrom('schedules')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('status', '=', 'pending');
  // A row-value comparison (both dialects): the index (project_id, status, at, id) seeks straight to it.
  if (after) query = query.where((eb) => eb(eb.refTuple('at', 'id'), '>', eb.tuple(after.at, after.id)));
  return query.orderBy('at').orderBy('id').limit(limit).execute();
}

/** Schedules that are no longer pending (or of one such status), newest first, ids below `before`. */
export function pastSchedules(
  db: DbOrTx,
  projectId: string,
  status: Exclude<ScheduleStatus, 'pending'> | undefined,
  before: string | undefined,
  limit: number,
): Promise<ScheduleRow[]> {
  let query = db
    .selectFrom('schedules')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('status', status ? '=' : '!=', status ?? 'pending');
  if (before) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Cancels a pending schedule; undefined when there is none of that id in the project, or it is no
 * longer pending. One UPDATE: on PostgreSQL it waits for a worker that holds the row (running it),
 * then re-reads the status that worker committed, so a cancel and a run never both win.
 */
export const cancelPending = (trx: Tx, projectId: string, id: string): Promise<ScheduleRow | undefined> =>
  trx
    .updateTable('schedules')
    .set({ status: 'canceled' })
    .where('projectId', '=', projectId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();

/** Whether any schedule of any project is due at `cutoff`: one probe of the (status, at) index. */
export async function anyDue(db: DbOrTx, cutoff: string): Promise<boolean> {
  const row = await db
    .selectFrom('schedules')
    .select('id')
    .where('status', '=', 'pending')
    .where('at', '<=', cutoff)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many schedules are due and not yet run (GET /metrics `folio_schedules_due`): the (status, at) index. */
export async function countDue(db: DbOrTx, cutoff: string): Promise<number> {
  const row = await db
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('status', '=', 'pending')
    .where('at', '<=', cutoff)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Claims the first schedule due at `cutoff` (by `at`, then id) for the caller's transaction, leaving
 * out `skip` (src/db/dialect/claim.ts). PostgreSQL: `FOR UPDATE SKIP LOCKED`, so workers running at
 * once take different rows, and the row stays locked until the transaction ends: a cancel waits for
 * it, and a crash releases it with everything else the transaction did. SQLite: one writer at a time.
 * Either way the row is re-read as it is now, so a schedule canceled meanwhile is not claimed.
 *
 * A schedule is not claimed while an earlier one (by `at`, then id) of the same page is pending:
 * that one may be running in another worker right now (its row locked, so skipped here), and running
 * both at once could apply them out of order (an unpublish at 10:00 before the publish at 9:00 after
 * an outage, leaving the entry live). So each page's schedules run one after the other, in order,
 * across every worker; different pages still run side by side. A page schedule and its entries'
 * schedules share the page.
 */
export function claimDueSchedule(
  trx: Tx,
  cutoff: string,
  skip: readonly string[],
): Promise<ScheduleRow | undefined> {
  let due = trx
    .selectFrom('schedules as s')
    .selectAll('s')
    .where('s.status', '=', 'pending')
    .where('s.at', '<=', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('schedules as earlier')
            .select('earlier.id')
            .whereRef('earlier.projectId', '=', 's.projectId')
            .where('earlier.status', '=', 'pending')
            .whereRef('earlier.targetPageId', '=', 's.targetPageId')
            .where((w) => w(w.refTuple('earlier.at', 'earlier.id'), '<', w.refTuple('s.at', 's.id'))),
        ),
      ),
    );
  if (skip.length > 0) due = due.where('s.id', 'not in', skip);
  return claimFirst(trx, 'schedules', due.orderBy('s.at').orderBy('s.id').limit(1));
}

/** Records how a claimed schedule ended, in its claiming transaction. */
export async function finishSchedule(
  trx: Tx,
  id: string,
  outcome: { status: 'done' | 'failed'; executedAt: string; error: string | null },
): Promise<void> {
  await trx.updateTable('schedules').set(outcome).where('id', '=', id).execute();
}

/**
 * Marks a schedule failed outside the transaction that tried it (that one rolled back). Only while it
 * is still pending: another worker may have run it since.
 */
export async function failPending(
  db: DbOrTx,
  id: string,
  executedAt: string,
  error: string,
  problems: string | null = null,
): Promise<void> {
  await db
    .updateTable('schedules')
    .set({ status: 'failed', executedAt, error, problems })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}
