/**
 * Everything the dashboard keeps in the browser lives in sessionStorage under the `folio.` prefix:
 * the session token, the account it belongs to and unsaved drafts. sessionStorage, not localStorage:
 * it survives a reload but belongs to one tab and is gone when the tab closes, so a token left on a
 * shared computer does not outlive the window. A new tab takes the session from an open one
 * (features/auth/api/tab-share.ts); two tabs may still hold two different accounts.
 * Sign-out removes every key (clearAll) but an account's preferences: the editor's language per
 * project lives in localStorage (features/editor/lib/locale-choice.ts), a preference, not a secret.
 */
const PREFIX = 'folio.';

export const storage = {
  get(key: string): string | null {
    try {
      return sessionStorage.getItem(PREFIX + key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    // Storage full or disabled: the dashboard still works, it only forgets across reloads.
    storage.put(key, value);
  },
  /** As set, saying whether the value was written: for a copy whose loss the editor must be told of. */
  put(key: string, value: string): boolean {
    try {
      sessionStorage.setItem(PREFIX + key, value);
      return true;
    } catch {
      return false;
    }
  },
  remove(key: string): void {
    try {
      sessionStorage.removeItem(PREFIX + key);
    } catch {}
  },
  keys(prefix: string): string[] {
    try {
      return Object.keys(sessionStorage)
        .filter((k) => k.startsWith(PREFIX + prefix))
        .map((k) => k.slice(PREFIX.length));
    } catch {
      return [];
    }
  },
  /**
   * Every byte the dashboard stored (sign-out). localStorage too, in case a library wrote there; but
   * not an account's preferences (`folio.pref.<accountId>.…`, the editor's language per project),
   * which hold no secret and are meant to outlive a session.
   */
  clearAll(): void {
    for (const area of [sessionStorage, localStorage]) {
      try {
        for (const key of Object.keys(area))
          if ((key.startsWith(PREFIX) && !key.startsWith(`${PREFIX}pref.`)) || key.startsWith('mantine'))
            area.removeItem(key);
      } catch {}
    }
  },
};
