import type SQLite from 'better-sqlite3';

type Driver = typeof SQLite;
let loading: Promise<Driver> | undefined;

/**
 * better-sqlite3, loaded on first use, so a server on PostgreSQL never loads it (issue 13: loading
 * the native module and its JavaScript was ~25 ms of a PostgreSQL start that never opens a SQLite
 * file). The counterpart of pg-driver.ts.
 */
export function loadSqlite(): Promise<Driver> {
  loading ??= import('better-sqlite3').then(({ default: driver }) => driver);
  return loading;
}
