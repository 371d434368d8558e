import type { DbOrTx } from '../../db/database.js';
import type { PreviewTokenRow } from './preview.table.js';

export async function insertToken(db: DbOrTx, row: PreviewTokenRow): Promise<void> {
  await db.insertInto('previewTokens').values(row).execute();
}

/** The project and expiry of a token that has not expired at `now`; null otherwise. */
export async function findLiveToken(
  db: DbOrTx,
  tokenHash: string,
  now: string,
): Promise<{ projectId: string; expiresAt: string } | null> {
  const row = await db
    .selectFrom('previewTokens')
    .select(['projectId', 'expiresAt'])
    .where('tokenHash', '=', tokenHash)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

export async function deleteExpired(db: DbOrTx, now: string): Promise<number> {
  const result = await db.deleteFrom('previewTokens').where('expiresAt', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
