import { validationFailed } from './errors.js';

/**
 * Cursor pagination for lists that grow without bound (contract §1). Lists are ordered by their
 * time-sortable id, newest first; the cursor is the last id of the previous page, opaque to clients.
 *
 * Usage in a repository: `where('id', '<', after)` when `after` is set, `orderBy('id', 'desc')`,
 * `limit(limit + 1)`; the route then calls `pageEnvelope(rows, limit)` (src/http/pagination.ts).
 */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[a-z]{3}_[0-9A-Z]{26}$/.test(id)) throw badCursor();
  return id;
}

const badCursor = () =>
  validationFailed('The cursor is not valid.', [
    { path: 'querystring.cursor', message: 'is not a cursor from this list' },
  ]);

/**
 * The key a cursor carries for a list ordered by something other than an id (GET /v1/pages: the page
 * id). Only what encodeCursor made is taken back: text that does not encode to the same cursor (not
 * base64url, or bytes that are not UTF-8) is a 400, never a page of something else.
 */
export function decodeKeyCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (key === '' || encodeCursor(key) !== cursor) throw badCursor();
  return key;
}

export const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');
