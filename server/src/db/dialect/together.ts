import { type Compilable, type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import type { StatementTemplates } from '../statement-templates.js';
import { insertInChunks } from './bulk.js';
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
export interface SideWrite {
  table: keyof Database;
  rows: readonly object[];
}

/** A SideWrite of `rows` into `table`, typed by the table (its module says what a row holds). */
export const sideWrite = <T extends keyof Database>(
  table: T,
  rows: readonly Insertable<Database[T]>[],
): SideWrite => ({ table, rows });

/** Writes `writes` as plain inserts: for a writer with nothing to fold them into (and SQLite). */
export async function runSideWrites(trx: Kysely<any>, writes: readonly SideWrite[]): Promise<void> {
  for (const write of writes) await insertInChunks(trx, write.table, write.rows);
}

/** `w0 as (insert …), w1 as (insert …)`: each side write's rows (`rowsOf`, the real ones or a template's). */
const insertCtes = (db: Kysely<any>, writes: readonly SideWrite[], rowsOf = (i: number) => writes[i]!.rows) =>
  writes.map(
    (write, i) =>
      sql`${sql.id(`w${i}`)} as (${db.insertInto(write.table).values(rowsOf(i) as Record<string, unknown>[])})`,
  );

/** `, pg_notify(…), …` after a statement's columns; nothing without payloads. */
const notifyColumns = (payloads: readonly unknown[]) =>
  payloads.length > 0 ? sql`, ${sql.join(payloads.map(pgNotify))}` : sql``;

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
  const ctes = insertCtes(trx, inserts);
  const head = ctes.length > 0 ? sql`with ${sql.join(ctes)} ` : sql``;
  const result = await sql<Row>`${head}${main as any}${notifyColumns(notify)}`.execute(trx);
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
      ...insertCtes(db, inserts, (i) => v.inserts[i]!),
    ];
    const guard = sql`select case when count(*) = 0 then concat(${sql.lit(NOT_WRITTEN)}, count(*))::int else 1 end as written from matched`;
    return sql`with ${sql.join(ctes)} select guard.written, matched.*${notifyColumns(v.notify)} from (${guard}) as guard left join matched on true`;
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
