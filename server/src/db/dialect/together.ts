import { type Compilable, type Kysely, type RawBuilder, sql } from 'kysely';
import { dialectOf } from './index.js';

/**
 * Runs a write and the rows that go with it (history, outbox event, activity, change
 * notifications) as one statement where the dialect allows: PostgreSQL data-modifying CTEs,
 * `with w0 as (insert …), w1 as (insert …) update … returning *, pg_notify(…)`. Every CTE runs
 * exactly once, whether or not the main statement reads it, and all of it is one atomic step.
 * SQLite has no data-modifying CTEs: the inserts run one after the other, then `main` (in-process
 * statements, no round trip to save).
 *
 * Why: a publish made seven round trips while it held the entry's row lock (update, history, event,
 * activity, notify, commit); ten editors on one entry queued behind each of them. `main` must
 * return rows (RETURNING); `notify` is the bus's `pg_notify` expressions, selected beside them.
 */
/** An insert that goes with a write, built and not yet run. */
export type SideWrite = Compilable<unknown> & { execute(): Promise<unknown> };

export async function writeTogether<Row>(
  trx: Kysely<any>,
  main: Compilable<Row> & { returning?: unknown },
  inserts: readonly SideWrite[],
  notify: readonly RawBuilder<unknown>[] = [],
): Promise<Row[]> {
  if (dialectOf(trx) !== 'postgres') {
    for (const insert of inserts) await trx.executeQuery(insert.compile());
    return (await trx.executeQuery(main.compile())).rows;
  }
  const ctes = inserts.map((insert, i) => sql`${sql.id(`w${i}`)} as (${insert as any})`);
  const head = ctes.length > 0 ? sql`with ${sql.join(ctes)} ` : sql``;
  const tail = notify.length > 0 ? sql`, ${sql.join(notify)}` : sql``;
  const result = await sql<Row>`${head}${main as any}${tail}`.execute(trx);
  return result.rows;
}
