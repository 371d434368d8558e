import { type Compilable, type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import type { StatementTemplates } from '../statement-templates.js';
import { pgNotify } from './change-bus.js';
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
 * return rows (RETURNING); `notify` is the change bus's payloads (Changed.take()), selected beside
 * them as `pg_notify` calls.
 */
/** Rows that go with a write, to be inserted by it: data only, so a statement template can bind them. */
export interface SideWrite<T extends keyof Database = keyof Database> {
  table: T;
  rows: readonly Insertable<Database[T]>[];
}

/** A SideWrite of `rows` into `table` (the modules that own a table say what its rows hold). */
export const sideWrite = <T extends keyof Database>(table: T, rows: readonly Insertable<Database[T]>[]) =>
  ({ table, rows }) as SideWrite;

const insertOf = (db: Kysely<any>, table: string, rows: readonly object[]) =>
  db.insertInto(table).values(rows as Record<string, unknown>[]);

/** Writes `writes` one statement each: for a writer with nothing to fold them into. */
export async function runSideWrites(trx: Kysely<any>, writes: readonly SideWrite[]): Promise<void> {
  for (const write of writes) await insertOf(trx, write.table, write.rows).execute();
}

export async function writeTogether<Row>(
  trx: Kysely<any>,
  main: Compilable<Row> & { returning?: unknown },
  inserts: readonly SideWrite[],
  notify: readonly string[] = [],
): Promise<Row[]> {
  if (dialectOf(trx) !== 'postgres') {
    await runSideWrites(trx, inserts);
    return (await trx.executeQuery(main.compile())).rows;
  }
  const ctes = inserts.map(
    (insert, i) => sql`${sql.id(`w${i}`)} as (${insertOf(trx, insert.table, insert.rows)})`,
  );
  const head = ctes.length > 0 ? sql`with ${sql.join(ctes)} ` : sql``;
  const tail = notify.length > 0 ? sql`, ${sql.join(notify.map(pgNotify))}` : sql``;
  const result = await sql<Row>`${head}${main as any}${tail}`.execute(trx);
  return result.rows;
}

/**
 * The main write of writeTogetherIfMatched, given as what it binds and how it is built from that,
 * so the whole statement can be compiled once per shape (src/db/statement-templates.ts).
 */
export interface TemplatedWrite<V> {
  /** Whatever `build` decides on besides `values` (a mode, which columns): part of the shape's key. */
  shape: string;
  /** Every value `build` binds, as a tree of plain objects and arrays; `build` must not make its own. */
  values: V;
  build: (db: Kysely<any>, values: V) => Compilable<unknown>;
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
 * The statement is compiled once per shape and bound to each call's values (`templates`).
 */
export async function writeTogetherIfMatched<Row, V>(
  db: Kysely<any>,
  templates: StatementTemplates,
  main: TemplatedWrite<V>,
  inserts: readonly SideWrite[],
  notify: readonly string[] = [],
): Promise<Row[] | undefined> {
  if (dialectOf(db) !== 'postgres') throw new Error('writeTogetherIfMatched is for PostgreSQL');
  const values = { main: main.values, inserts: inserts.map((insert) => insert.rows), notify };
  const shape = `${main.shape}|${inserts.map((insert) => insert.table).join(',')}`;
  const statement = templates.compile(shape, values, (v) => {
    const ctes = [
      sql`matched as (${main.build(db, v.main) as any})`,
      ...inserts.map(
        (insert, i) => sql`${sql.id(`w${i}`)} as (${insertOf(db, insert.table, v.inserts[i]!)})`,
      ),
    ];
    const tail = v.notify.length > 0 ? sql`, ${sql.join(v.notify.map(pgNotify))}` : sql``;
    const guard = sql`select case when count(*) = 0 then concat(${sql.lit(NOT_WRITTEN)}, count(*))::int else 1 end as written from matched`;
    return sql`with ${sql.join(ctes)} select guard.written, matched.*${tail} from (${guard}) as guard left join matched on true`;
  });
  try {
    return (await db.executeQuery<Row>(statement)).rows;
  } catch (err) {
    const { code, message } = err as { code?: string; message?: string };
    if (code === INVALID_TEXT_REPRESENTATION && message?.includes(NOT_WRITTEN)) return undefined;
    throw err;
  }
}

const NOT_WRITTEN = 'folio: not written, the row changed since it was read; matched ';
const INVALID_TEXT_REPRESENTATION = '22P02';
