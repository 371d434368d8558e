import { encodeCursor } from '../shared/cursor.js';

// Cursor pagination (contract §1): the service returns one page plus one row (src/shared/cursor.ts
// says how), the route shapes it here.

/** The cursor continuing after a row: its id, for lists ordered by id (every list but schedules). */
const byId = (row: { id: string }): string => encodeCursor(row.id);

/** Trims the extra row fetched to learn whether more remain, and builds the envelope's meta. */
export function pageOf<T extends { id: string }>(
  rows: T[],
  limit: number,
  cursorOf: (row: T) => string = byId,
) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const meta = rows.length > limit && last ? { nextCursor: cursorOf(last) } : undefined;
  return { items, meta };
}

/** The `{ data, error, meta? }` envelope of one page; `cursorOf` for lists not ordered by id alone. */
export function pageEnvelope<T extends { id: string }>(
  rows: T[],
  limit: number,
  cursorOf?: (row: T) => string,
) {
  const { items, meta } = pageOf(rows, limit, cursorOf);
  return meta ? { data: items, error: null, meta } : { data: items, error: null };
}
