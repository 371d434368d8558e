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
 * Bounded: the least recently used entry goes first.
 */
const CONTENDED_MS = 1000;

export function createEntryMemo(max = 2000) {
  const rows = new Map<string, { row: EntryForWrite; lockedOnlyUntil: number }>();
  const keyOf = (projectId: string, entryId: string) => `${projectId} ${entryId}`;
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
      rows.delete(key); // to the newest end
      const lockedOnlyUntil = contended ? Date.now() + CONTENDED_MS : (before?.lockedOnlyUntil ?? 0);
      rows.set(key, { row, lockedOnlyUntil });
      if (rows.size > max) rows.delete(rows.keys().next().value as string);
    },
    forget(projectId: string, entryId: string): void {
      rows.delete(keyOf(projectId, entryId));
    },
  };
}

export type EntryMemo = ReturnType<typeof createEntryMemo>;
