import type pg from 'pg';

/**
 * Named prepared statements on PostgreSQL for the statements a process runs again and again (issue 13).
 * Kysely sends every statement unnamed, so PostgreSQL parses, analyses and plans it on every call: a
 * publish spent 255 µs of its ~1.1 ms of database CPU planning its two statements. A named statement
 * is parsed once per connection and, after five runs, planned once (plan_cache_mode `auto`); the bench
 * measured the database's CPU per publish go from 1.1 ms to 0.6–0.7 ms.
 *
 * Which statements: those with parameters whose text has been seen HOT_AFTER times, up to MAX_NAMED
 * texts per process (texts that vary with the data, such as an `in (…)` list's length, stop getting
 * names there, so neither node-postgres nor the server keeps an unbounded number per connection).
 *
 * A migration run by a newer instance can change the columns a prepared `select *` or `returning *`
 * expands to; PostgreSQL then refuses the statement ("cached plan must not change result type").
 * The connection then prepares all of its statements again under new names, and a statement that ran
 * on its own (not inside a transaction) is retried at once, as postgres.js does; one inside a
 * transaction has aborted it, and the request fails once (503, src/db/dialect/unavailable.ts).
 *
 * CMS_PG_PREPARED_STATEMENTS=false turns this off: for a pooler that does not keep named statements
 * across transactions (PgBouncer in transaction mode before 1.21, or with max_prepared_statements 0).
 */
const HOT_AFTER = 2;
const MAX_NAMED = 200;
/** Texts counted towards HOT_AFTER before the counts start over (the count itself stays bounded). */
const MAX_COUNTED = 5000;

/** The name for a statement's text, or undefined to send it unnamed. Shared by a pool's connections. */
export function createStatementNames(): (text: string) => string | undefined {
  const named = new Map<string, string>();
  let counts = new Map<string, number>();
  return (text) => {
    const name = named.get(text);
    if (name !== undefined || named.size >= MAX_NAMED) return name;
    const seen = (counts.get(text) ?? 0) + 1;
    if (seen < HOT_AFTER) {
      if (counts.size >= MAX_COUNTED) counts = new Map();
      counts.set(text, seen);
      return undefined;
    }
    counts.delete(text);
    const fresh = `folio_${named.size.toString(36)}`;
    named.set(text, fresh);
    return fresh;
  };
}

/** PostgreSQL's refusal of a prepared statement whose result columns changed under it. */
export function isStalePlan(err: unknown): boolean {
  const e = err as { code?: unknown; routine?: unknown } | null;
  return e?.code === '0A000' && e.routine === 'RevalidateCachedQuery';
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes every connection of `pool` send hot statements named (see above). */
export function usePreparedStatements(pool: pg.Pool): void {
  const nameOf = createStatementNames();
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    // Bumped when the server refused a stale statement: every name of this connection is new then.
    let generation = 0;
    const run = (name: string, text: string, values: unknown[]) =>
      query({ name: `${name}_${generation}`, text, values }) as Promise<pg.QueryResult>;
    (client as unknown as { query: Query }).query = (config, values, callback) => {
      // Kysely calls query(text, parameters); anything else (cursors, callbacks, begin/commit
      // without parameters) goes through as it came.
      if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0 || callback) {
        return query(config, values, callback);
      }
      const name = nameOf(config);
      if (name === undefined) return query(config, values);
      // The status as of the statement's start (ReadyForQuery before it): 'I' means on its own.
      const alone = client.getTransactionStatus() === 'I';
      return run(name, config, values).catch((err: unknown) => {
        if (!isStalePlan(err)) throw err;
        generation++;
        if (!alone) throw err;
        return run(name, config, values);
      });
    };
  });
}
