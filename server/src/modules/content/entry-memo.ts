import type { EntryForWrite } from './content.repository.js';

/**
 * What this instance last knew of an entry it wrote (or read under the row lock): the start of an
 * optimistic publish on PostgreSQL (content.service.ts, `update`). Never an answer on its own: the
 * optimistic write is conditioned on everything taken from here (the entry's version, its declared
 * fields, the session), so a stale memo — another instance's write, a definition sync, a restore —
 * costs one statement that matches nothing, and the write then takes the locked path, which reads
 * afresh and refreshes the memo.
 *
 * After such a miss the entry is left to the locked path for CONTENDED_MS: editors writing one entry
 * at once would otherwise each try and miss in turn (ten editors on one entry is a bench scenario).
 * Bounded by count and by the text it holds (an entry's fields may reach megabytes): the least
 * recently used entry goes first, and an entry over MAX_ENTRY_CHARS is not kept (its writes take the
 * locked path, where moving its data costs more than the round trips saved).
 */
const CONTENDED_MS = 1000;
const MAX_ENTRY_CHARS = 256 * 1024;
const MAX_TOTAL_CHARS = 32 * 1024 * 1024;

const charsOf = (row: EntryForWrite) =>
  row.fields.length + (row.publishedFields?.length ?? 0) + (row.declaredFields?.length ?? 0);

export function createEntryMemo(max = 2000, maxChars = MAX_TOTAL_CHARS) {
  const rows = new Map<string, { row: EntryForWrite; lockedOnlyUntil: number; chars: number }>();
  let total = 0;
  const keyOf = (projectId: string, entryId: string) => `${projectId} ${entryId}`;
  const drop = (key: string) => {
    const known = rows.get(key);
    if (!known) return;
    total -= known.chars;
    rows.delete(key);
  };
  return {
    /** The remembered entry, or undefined when unknown or recently contended. */
    get(projectId: string, entryId: string): EntryForWrite | undefined {
      const known = rows.get(keyOf(projectId, entryId));
      if (!known || known.lockedOnlyUntil > Date.now()) return undefined;
      return known.row;
    },
    /** After a write (or a read under the lock) committed; `contended` after an optimistic miss. */
    remember(row: EntryForWrite, contended = false): void {
      const key = keyOf(row.projectId, row.id);
      const before = rows.get(key);
      drop(key); // re-added at the newest end
      const chars = charsOf(row);
      if (chars > MAX_ENTRY_CHARS) return;
      const lockedOnlyUntil = contended ? Date.now() + CONTENDED_MS : (before?.lockedOnlyUntil ?? 0);
      rows.set(key, { row, lockedOnlyUntil, chars });
      total += chars;
      while (rows.size > max || total > maxChars) drop(rows.keys().next().value as string);
    },
    /** Entries and characters held (for tests). */
    size: () => ({ entries: rows.size, chars: total }),
  };
}

export type EntryMemo = ReturnType<typeof createEntryMemo>;
