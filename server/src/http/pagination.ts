import { encodeCursor } from '../shared/cursor.js';

// Cursor pagination (contract §1): the service returns one page plus one row (src/shared/cursor.ts
// says how), the route shapes it here.

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
