import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The few places where SQLite and PostgreSQL differ. Everything else is SQL both run.
 */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Serialise writers that must see a consistent set of rows (e.g. "is this the last admin?").
 * PostgreSQL locks the parent row until the transaction ends. SQLite needs nothing: it has a single
 * writer, and better-sqlite3 runs one transaction at a time on its one connection.
 */
export async function lockRow(trx: Kysely<any>, table: string, id: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await sql`select 1 from ${sql.table(table)} where id = ${id} for update`.execute(trx);
}

/**
 * Runs `fn` in a write transaction that no other transaction holding the same `key` overlaps, on
 * any instance: a check-then-write (count, then insert) that must not race. PostgreSQL: a
 * transaction-level advisory lock on a 64-bit hash of the key (a hash collision only serialises two
 * unrelated keys). SQLite: BEGIN IMMEDIATE takes the database's single write lock before the first
 * read, so the count cannot be stale; Kysely's `transaction()` would issue a deferred BEGIN, whose
 * read snapshot could predate another process's commit. Rejected: SELECT … FOR UPDATE, which locks
 * only rows that exist and so cannot guard a count that starts at zero.
 */
export async function serializedOn<T>(
  db: Kysely<any>,
  key: string,
  fn: (trx: Kysely<any>) => Promise<T>,
): Promise<T> {
  if (dialectOf(db) === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
      return fn(trx);
    });
  }
  // One connection, held (Kysely's SQLite driver lends it to one caller at a time) until commit.
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      // SQLite may have rolled back already (e.g. on SQLITE_FULL); the original error is the one to see.
      await sql`rollback`.execute(conn).catch(() => {});
      throw err;
    }
  });
}

/**
 * Leave `percent` of each page free for updates (PostgreSQL's fillfactor), so a row rewritten with
 * the same key can stay on its page (a HOT update: no index change). SQLite has no such setting.
 */
export async function setFillFactor(db: Kysely<any>, table: string, percent: number): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table ${sql.table(table)} set (fillfactor = ${sql.lit(percent)})`.execute(db);
}

/**
 * The database server's clock, as an ISO 8601 UTC timestamp with milliseconds (the form every
 * timestamp column holds, so it compares with them as text). Scheduled publishing asks it so that
 * "due" means the same moment to every instance, whatever their own clocks say. PostgreSQL:
 * `clock_timestamp()` (the time now, not the transaction's start like `now()`); SQLite: the host's
 * clock, which is this process's.
 */
export async function databaseNow(db: Kysely<any>): Promise<string> {
  const query =
    dialectOf(db) === 'postgres'
      ? sql<{
          now: string;
        }>`select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as now`
      : sql<{ now: string }>`select strftime('%Y-%m-%dT%H:%M:%fZ', 'now') as now`;
  const { rows } = await query.execute(db);
  const now = rows[0]?.now;
  if (!now) throw new Error('the database did not tell its time');
  return now;
}

/**
 * `column` is one of `values`, bound as ONE parameter: `= any($1::text[])` on PostgreSQL, `in (select
 * value from json_each(?))` on SQLite. An `in (?, ?, …)` list would make a statement text per list
 * length, and each text seen twice takes one of the few named prepared statements a process keeps
 * (src/db/pg-prepared.ts) from the statements that need them. Both plans look each value up in the
 * column's index.
 */
export function isOneOf(db: Kysely<any>, column: string, values: readonly string[]) {
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = any(${[...values]}::text[])`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`;
}

/** `needle` occurs in `column` (case-sensitive; fold both sides first for a case-insensitive match). */
export function contains(db: Kysely<any>, column: string, needle: string) {
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`strpos(${sql.ref(column)}, ${needle}) > 0`
    : sql<boolean>`instr(${sql.ref(column)}, ${needle}) > 0`;
}
