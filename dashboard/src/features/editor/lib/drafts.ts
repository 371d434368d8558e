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
  write(projectId: string, entryId: string, draft: Draft, locale?: string): void {
    storage.set(key(projectId, entryId, locale), JSON.stringify(draft));
  },
  /** The entry's draft in `locale`; with `every`, its drafts in every locale too (the entry is gone). */
  remove(projectId: string, entryId: string, locale?: string, every = false): void {
    storage.remove(key(projectId, entryId, locale));
    if (every) for (const k of storage.keys(`${key(projectId, entryId)}.`)) storage.remove(k);
  },
};
