import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './database.js';
import { loadPg } from './pg-driver.js';
import { usePreparedStatements } from './pg-prepared.js';
import { CamelCaseAtCompile, mappingIdentifiers } from './snake-case.js';
import { loadSqlite } from './sqlite-driver.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseConfig['kind'];
  /** Where it points (the change bus opens its own LISTEN connection from this). */
  config: DatabaseConfig;
  /** Cheap round trip for /health. */
  ping(): Promise<void>;
  /** The connection pool's use, for /metrics (read from counters, no query). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/**
 * PostgreSQL: the pool's open connections, how many are idle, and queries waiting for one.
 * SQLite: one connection, which Kysely hands to one query or transaction at a time; whether it is
 * busy, and who waits for it, is not observable from outside the driver, so only `total` is given.
 */
export interface PoolStats {
  total: number;
  idle?: number;
  waiting?: number;
}

/** Opens the configured database (no connection is made before the first query). */
export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  // camelCase in TypeScript, snake_case in SQL, mapped by the compiler (snake-case.ts says why).
  const camelCase = new CamelCaseAtCompile();
  const plugins = [camelCase];
  if (config.kind === 'postgres') {
    const pg = await loadPg();
    const pool = new pg.Pool({ connectionString: config.url, max: 10, connectionTimeoutMillis: 5000 });
    // A client that loses its server (restart, failover, pg_terminate_backend) emits 'error'; an
    // 'error' event without a listener kills the process. The pool listens only while a client is
    // idle (and re-emits on the pool, hence the first listener); while a client is checked out
    // nobody does, so every client gets its own listener for life. Nothing is lost by ignoring the
    // event: the query in flight fails with the same error (mapped to 503 by the error handler), and
    // the pool discards the broken client when it is released.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    if (config.preparedStatements !== false) usePreparedStatements(pool);
    const db = new Kysely<Database>({
      dialect: mappingIdentifiers(new PostgresDialect({ pool }), camelCase),
      plugins,
    });
    return {
      db,
      kind: 'postgres',
      config,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }

  if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
  const Driver = await loadSqlite();
  const sqlite = new Driver(config.file);
  // WAL lets readers run beside the writer; NORMAL sync is durable at each checkpoint and safe in WAL.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: mappingIdentifiers(new SqliteDialect({ database: withStatementCache(sqlite) }), camelCase),
    plugins,
  });
  return {
    db,
    kind: 'sqlite',
    config,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => ({ total: 1 }),
    close: () => db.destroy(),
  };
}

/**
 * Kysely's SQLite driver prepares every query anew, and preparing costs more than running a small
 * indexed query (tens of microseconds per join). Statements are cached by their SQL text instead:
 * better-sqlite3 is synchronous, so a statement has finished before it can be used again (Kysely's
 * streaming `iterate` is the exception, and Folio never streams). Bounded: bulk writes whose SQL
 * text varies with the row count come and go without growing it.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql); // move to the newest end: least recently used goes first
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= max) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
