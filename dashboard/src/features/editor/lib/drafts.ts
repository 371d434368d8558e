import { storage } from '../../../lib/storage';
import type { FormValue } from './fields';

/**
 * Unsaved edits of an entry, kept in sessionStorage under `draft.<projectId>.<entryId>` on every
 * change, so they survive what would otherwise lose them: the session expiring (the sign-in replaces
 * the screen), a reload, a crash. `version` is the entry version the edits were made on: saving sends
 * it as If-Match, so edits made on an old version meet the conflict dialog instead of overwriting.
 * A save, "Reload" and leaving the page on purpose remove the draft; sign-out removes them all.
 */
export interface Draft {
  version: number;
  values: Record<string, FormValue>;
}

/**
 * In a project with locales a draft belongs to one locale (`draft.<projectId>.<entryId>.<locale>`): its
 * version is that locale's and its values are saved into it. Without locales the key is as before.
 */
const key = (projectId: string, entryId: string, locale?: string) =>
  locale === undefined ? `draft.${projectId}.${entryId}` : `draft.${projectId}.${entryId}.${locale}`;

/**
 * The drafts that could not be written (the browser's storage full: a 2 MB paste) and whose older
 * copy was removed, so that a reload shows the server's copy rather than older unsaved text as if it
 * were the latest. The form keeps the edits in memory and says they are not backed up
 * (DraftBackupWarning); the next write that fits, a save or a reload ends it.
 */
const notBackedUp = new Set<string>();
const listeners = new Set<() => void>();
function mark(k: string, failed: boolean): void {
  if (failed === notBackedUp.has(k)) return;
  if (failed) notBackedUp.add(k);
  else notBackedUp.delete(k);
  for (const listener of listeners) listener();
}

export const drafts = {
  read(projectId: string, entryId: string, locale?: string): Draft | null {
    const raw = storage.get(key(projectId, entryId, locale));
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as Draft;
      return typeof parsed.version === 'number' && parsed.values && typeof parsed.values === 'object'
        ? parsed
        : null;
    } catch {
      return null;
    }
  },
  /** Whether the draft is backed up; when it cannot be, its older copy is removed. */
  write(projectId: string, entryId: string, draft: Draft, locale?: string): boolean {
    const k = key(projectId, entryId, locale);
    const written = storage.put(k, JSON.stringify(draft));
    if (!written) storage.remove(k);
    mark(k, !written);
    return written;
  },
  /** The entry's draft in `locale`; with `every`, its drafts in every locale too (the entry is gone). */
  remove(projectId: string, entryId: string, locale?: string, every = false): void {
    const k = key(projectId, entryId, locale);
    storage.remove(k);
    mark(k, false);
    if (every)
      for (const other of [...storage.keys(`${key(projectId, entryId)}.`), ...notBackedUp]) {
        if (!other.startsWith(`${key(projectId, entryId)}.`)) continue;
        storage.remove(other);
        mark(other, false);
      }
  },
  /** Whether this draft's last write failed (storage full): its edits are in memory only. */
  unbacked(projectId: string, entryId: string, locale?: string): boolean {
    return notBackedUp.has(key(projectId, entryId, locale));
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
