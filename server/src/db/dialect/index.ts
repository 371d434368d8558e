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
 * Leave `percent` of each page free for updates (PostgreSQL's fillfactor), so a row rewritten with
 * the same key can stay on its page (a HOT update: no index change). SQLite has no such setting.
 */
export async function setFillFactor(db: Kysely<any>, table: string, percent: number): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table ${sql.table(table)} set (fillfactor = ${sql.lit(percent)})`.execute(db);
}
