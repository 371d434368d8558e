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

/**
 * writeTogether for a write made outside a transaction (PostgreSQL): the statement writes anything,
 * inserts included, only when `main` matches a row, and returns undefined (having written nothing)
 * when it matches none. `main`'s WHERE carries every fact the writer read beforehand (the row's
 * version, ...), so a match means none of them changed: an optimistic write in one round trip.
 *
 * How: data-modifying CTEs all run whether or not a row matched, so the statement fails when none
 * did, which rolls all of it back, inserts included: a guard casts a message to an integer when the
 * update returned no row. PostgreSQL's own log then shows the miss as `ERROR: invalid input syntax
 * for type integer: "folio: not written, …"`: a write that lost a race and was retried under a lock.
 * The message is built by concat() (not constant, so never evaluated while planning), and the guard
 * column is selected (PostgreSQL does not evaluate a subquery column nobody reads).
 */
export async function writeTogetherIfMatched<Row>(
  db: Kysely<any>,
  main: Compilable<Row> & { returning?: unknown },
  inserts: readonly SideWrite[],
  notify: readonly RawBuilder<unknown>[] = [],
): Promise<Row[] | undefined> {
  if (dialectOf(db) !== 'postgres') throw new Error('writeTogetherIfMatched is for PostgreSQL');
  const ctes = [
    sql`matched as (${main as any})`,
    ...inserts.map((insert, i) => sql`${sql.id(`w${i}`)} as (${insert as any})`),
  ];
  const tail = notify.length > 0 ? sql`, ${sql.join(notify)}` : sql``;
  const guard = sql`select case when count(*) = 0 then concat(${sql.lit(NOT_WRITTEN)}, count(*))::int else 1 end as written from matched`;
  try {
    const result =
      await sql<Row>`with ${sql.join(ctes)} select guard.written, matched.*${tail} from (${guard}) as guard left join matched on true`.execute(
        db,
      );
    return result.rows;
  } catch (err) {
    const { code, message } = err as { code?: string; message?: string };
    if (code === INVALID_TEXT_REPRESENTATION && message?.includes(NOT_WRITTEN)) return undefined;
    throw err;
  }
}

const NOT_WRITTEN = 'folio: not written, the row changed since it was read; matched ';
const INVALID_TEXT_REPRESENTATION = '22P02';
