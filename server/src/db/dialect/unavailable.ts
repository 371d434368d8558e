import { NET_CODES } from '../../shared/net-codes.js';
import { isStalePlan } from '../pg-prepared.js';

/**
 * Whether an error means "the database could not be reached for this request" rather than "the
 * request or our code is wrong": the one list both dialects' connection-level failures are read
 * from. The error handler answers these with `503 unavailable` and `Retry-After` (contract part two)
 * instead of a 500; the worker uses it to tell an outage from a bug and back off quietly.
 *
 * Nothing was written in any of these cases: a connection that drops ends its transaction, which
 * PostgreSQL rolls back, and a busy SQLite write never began. (A connection lost while its COMMIT is
 * in flight is the one ambiguous case; it cannot be told apart from the client side.)
 */

/** SQLSTATEs: 57P01 admin_shutdown (pg_terminate_backend, a restart), 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up, recovery), 53300 too_many_connections. Class 08 is the
 * connection exception class. */
const PG_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres and pg-pool report these without a code. */
const PG_MESSAGES = [
  'Connection terminated', // "…unexpectedly", "…due to connection timeout"
  'timeout exceeded when trying to connect', // pool: no client within connectionTimeoutMillis
  'is not queryable', // a client that already lost its connection
  'Query read timeout',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 3; e = (e as Error).cause, depth++) {
    // A prepared statement that a newer instance's migration made stale, inside a transaction: the
    // connection has prepared afresh, so the client's retry succeeds (src/db/pg-prepared.ts).
    if (isStalePlan(e)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (PG_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || NET_CODES.has(code)) return true;
      // better-sqlite3: the write lock stayed taken past busy_timeout (another process or a long writer).
      if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && PG_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
