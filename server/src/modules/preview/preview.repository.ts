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

/** Which of `tokenHashes` still exist and have not expired at `now`. */
export async function liveTokenHashes(db: DbOrTx, tokenHashes: string[], now: string): Promise<Set<string>> {
  if (tokenHashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('previewTokens')
    .select('tokenHash')
    .where('tokenHash', 'in', tokenHashes)
    .where('expiresAt', '>', now)
    .execute();
  return new Set(rows.map((r) => r.tokenHash));
}

/**
 * Deletes the tokens of one project, of one creator, or of one creator in one project (at least one
 * of the two is given); returns the project of each token deleted.
 */
export async function deleteTokens(
  db: DbOrTx,
  scope: { projectId: string; createdBy?: string } | { projectId?: string; createdBy: string },
): Promise<string[]> {
  let query = db.deleteFrom('previewTokens');
  if (scope.projectId !== undefined) query = query.where('projectId', '=', scope.projectId);
  if (scope.createdBy !== undefined) query = query.where('createdBy', '=', scope.createdBy);
  const rows = await query.returning('projectId').execute();
  return rows.map((r) => r.projectId);
}

export async function deleteExpired(db: DbOrTx, now: string): Promise<number> {
  const result = await db.deleteFrom('previewTokens').where('expiresAt', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
