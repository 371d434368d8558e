import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../src/db/connect.js';

/** Two instances on one database (multi-instance tests): waiting for what crosses the change bus. */

/** Polls `read` until `done` holds or `ms` pass; returns the last value read. */
export async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 1000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    value = await read();
  }
  return value;
}

/**
 * Resolves once B has received every change committed on the database before this call. A's writes
 * reach B's caches as notifications, after A has answered; one arriving after B has cached a page
 * drops it again. PostgreSQL delivers notifications in commit order, so a marker sent now arrives
 * after all of them (its topic is one no cache acts on). One instance (SQLite): nothing to wait for.
 */
export async function caughtUp(
  a: FastifyInstance,
  b: FastifyInstance,
  db: DatabaseHandle['db'],
): Promise<void> {
  if (a === b) return;
  const marker = randomUUID();
  const arrived = new Promise<void>((resolve) => {
    const stop = b.changes.subscribe((topic, key) => {
      if (topic !== 'test.marker' || key !== marker) return;
      stop();
      resolve();
    });
  });
  await a.changes.notify(db, 'test.marker', marker);
  await arrived;
}
