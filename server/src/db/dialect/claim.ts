import type { Kysely, SelectQueryBuilder } from 'kysely';
import { dialectOf } from './index.js';

/**
 * Job claiming, the one place the two dialects differ for the worker (graphile-worker's getJobs).
 *
 * A claim is always one `UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING *` statement:
 * - PostgreSQL: the inner SELECT takes `FOR UPDATE SKIP LOCKED`, so several Folio processes claiming
 *   at the same moment each get different rows instead of queueing on the same ones.
 * - SQLite: no row locks and none needed — the UPDATE takes the database's single write lock for the
 *   whole statement, so two processes on one file cannot claim the same row either. Starting with the
 *   write (rather than SELECT then UPDATE) also avoids SQLITE_BUSY_SNAPSHOT in WAL mode.
 */
export function skipLocked<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, qb: QB): QB {
  return dialectOf(db) === 'postgres' ? (qb.forUpdate().skipLocked() as QB) : qb;
}

/** A blocking row lock on PostgreSQL (SQLite's single writer already serialises the transaction). */
export function forUpdate<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, qb: QB): QB {
  return dialectOf(db) === 'postgres' ? (qb.forUpdate() as QB) : qb;
}

/**
 * Claims the first row `due` selects (a query of `table`, ordered and limited to one, selecting the
 * whole row) for the caller's transaction, which holds it until it ends.
 * - PostgreSQL: `due … FOR UPDATE SKIP LOCKED` as it is. Not `UPDATE … WHERE id IN (SELECT … LIMIT 1
 *   FOR UPDATE SKIP LOCKED)`: the planner may run that subquery once per outer row (a nested-loop
 *   semi-join), and each rerun, passing over the row the statement just updated, locks the next one:
 *   rows it never returns stay locked until the transaction ends, and other workers skip them.
 * - SQLite: an UPDATE that sets `id` to itself, so the transaction takes the database's write lock
 *   with its first statement (starting with a read would risk SQLITE_BUSY_SNAPSHOT when another
 *   process wrote in between); the single writer keeps everyone else out until it ends.
 */
export async function claimFirst<Row extends { id: string }>(
  trx: Kysely<any>,
  table: string,
  due: SelectQueryBuilder<any, any, Row>,
): Promise<Row | undefined> {
  if (dialectOf(trx) === 'postgres') return due.forUpdate().skipLocked().executeTakeFirst();
  return (await trx
    .updateTable(table)
    .set((eb: any) => ({ id: eb.ref('id') }))
    .where('id', 'in', (eb: any) => eb.selectFrom(due.as('due')).select('due.id'))
    .returningAll()
    .executeTakeFirst()) as Row | undefined;
}

/**
 * Leases up to `limit` due rows of an attempt table (webhook deliveries, deploy calls): pending, due,
 * and not leased by anyone (or leased by a process whose lease ran out — it crashed or hung).
 * The lease value is returned with the rows; recording an outcome is conditional on it, so a process
 * that lost its lease cannot overwrite a newer attempt.
 */
export async function claimDueAttempts<Row>(
  db: Kysely<any>,
  table: string,
  limit: number,
  now: string,
  leaseUntil: string,
): Promise<Row[]> {
  return (await db
    .updateTable(table)
    .set({ lockedUntil: leaseUntil })
    .where('id', 'in', (eb: any) =>
      skipLocked(
        db,
        eb
          .selectFrom(table)
          .select('id')
          .where('status', '=', 'pending')
          .where('nextAttemptAt', '<=', now)
          .where((w: any) => w.or([w('lockedUntil', 'is', null), w('lockedUntil', '<', now)]))
          .orderBy('nextAttemptAt')
          .limit(limit),
      ),
    )
    .returningAll()
    .execute()) as Row[];
}
