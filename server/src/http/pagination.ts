import { validationFailed } from '../shared/errors.js';

/**
 * Cursor pagination for lists that grow without bound (contract §1). Lists are ordered by their
 * time-sortable id, newest first; the cursor is the last id of the previous page, opaque to clients.
 *
 * Usage in a repository: `where('id', '<', after)` when `after` is set, `orderBy('id', 'desc')`,
 * `limit(limit + 1)`; then `pageOf(rows, limit)`.
 */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[a-z]{3}_[0-9A-Z]{26}$/.test(id)) {
    throw validationFailed('The cursor is not valid.', [
      { path: 'querystring.cursor', message: 'is not a cursor from this list' },
    ]);
  }
  return id;
}

export const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

/** Trims the extra row fetched to learn whether more remain, and builds the envelope's meta. */
export function pageOf<T extends { id: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const meta = rows.length > limit && last ? { nextCursor: encodeCursor(last.id) } : undefined;
  return { items, meta };
}

/** The `{ data, error, meta? }` envelope of one page. */
export function pageEnvelope<T extends { id: string }>(rows: T[], limit: number) {
  const { items, meta } = pageOf(rows, limit);
  return meta ? { data: items, error: null, meta } : { data: items, error: null };
}
