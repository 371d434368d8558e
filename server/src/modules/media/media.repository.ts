import type { DbOrTx } from '../../db/database.js';
import type { MediaDeletionsTable, MediaRow, MediaTable } from './media.table.js';

export async function insertMedia(db: DbOrTx, row: MediaTable): Promise<void> {
  await db.insertInto('media').values(row).execute();
}

export const findMedia = (db: DbOrTx, projectId: string, id: string): Promise<MediaRow | undefined> =>
  db
    .selectFrom('media')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();

/** One page, newest first; fetches `limit + 1` rows so the caller learns whether more remain. */
export function listMedia(db: DbOrTx, projectId: string, limit: number, after?: string): Promise<MediaRow[]> {
  let query = db.selectFrom('media').selectAll().where('projectId', '=', projectId);
  if (after) query = query.where('id', '<', after);
  return query
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/** Deletes the row; false when there was none (already deleted, or another project's). */
export async function deleteMedia(db: DbOrTx, projectId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('media')
    .where('projectId', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertDeletion(db: DbOrTx, row: MediaDeletionsTable): Promise<void> {
  await db.insertInto('mediaDeletions').values(row).execute();
}

/** Pending file removals, oldest first (a crash left them, or a removal is in progress elsewhere). */
export const pendingDeletions = (db: DbOrTx, limit: number): Promise<MediaDeletionsTable[]> =>
  db.selectFrom('mediaDeletions').selectAll().orderBy('createdAt').limit(limit).execute();

export async function clearDeletion(db: DbOrTx, storageKey: string): Promise<void> {
  await db.deleteFrom('mediaDeletions').where('storageKey', '=', storageKey).execute();
}
