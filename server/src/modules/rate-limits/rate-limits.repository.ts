import type { DbOrTx } from '../../db/database.js';

/**
 * Counts one request in a window and returns the window's count: one atomic upsert, so instances
 * sharing the database never both see room for the last request.
 */
export async function countHit(
  db: DbOrTx,
  window: { key: string; windowStart: string; expiresAt: string },
): Promise<number> {
  const row = await db
    .insertInto('rateLimitCounts')
    .values({ ...window, count: 1 })
    .onConflict((oc) =>
      oc.columns(['key', 'windowStart']).doUpdateSet((eb) => ({
        count: eb(eb.ref('rateLimitCounts.count'), '+', 1),
      })),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Drops every finished window, whatever its key (an index range on expires_at). */
export async function pruneExpired(db: DbOrTx, now: string): Promise<void> {
  await db.deleteFrom('rateLimitCounts').where('expiresAt', '<=', now).execute();
}
