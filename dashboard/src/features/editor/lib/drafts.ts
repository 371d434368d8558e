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

const key = (projectId: string, entryId: string) => `draft.${projectId}.${entryId}`;

export const drafts = {
  read(projectId: string, entryId: string): Draft | null {
    const raw = storage.get(key(projectId, entryId));
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
  write(projectId: string, entryId: string, draft: Draft): void {
    storage.set(key(projectId, entryId), JSON.stringify(draft));
  },
  remove(projectId: string, entryId: string): void {
    storage.remove(key(projectId, entryId));
  },
};
