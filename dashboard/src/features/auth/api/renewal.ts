import type { FolioClient } from '@folio/client';
import { sessionEnded } from '../../../lib/api';
import { storage } from '../../../lib/storage';
import { type SharedSession, tellTabs } from './tab-share';

/**
 * Session renewal. A session lasts CMS_SESSION_TTL_SECONDS (7 days by default) from login and does not
 * slide; `POST /v1/auth/refresh` returns a new token with a fresh lifetime and ends the old one at once
 * (contract §2). The dashboard renews while the editor is active: once half of the session's lifetime
 * has passed, the next key press or pointer press renews it. Nothing runs on a timer, so an idle tab
 * never keeps a session alive (nor calls the API) on its own; an editor who stays away past the expiry
 * meets the sign-in on their next call, with their unsaved text kept (drafts).
 */

export const TOKEN = 'session';
/** The account the session belongs to. */
export const ACCOUNT = 'account';
/** When the session expires (ISO), as the server said: handed to a new tab with the token. */
const EXPIRES_AT = 'session.expiresAt';
/** When (epoch ms, this browser's clock) the session is due for renewal. */
const RENEW_AT = 'session.renewAt';
/** After a failed renewal (network, 5xx), wait this long before the next try. */
const RETRY_MS = 60_000;

/** Records a token just issued (login or refresh): due for renewal halfway to its expiry. */
export function rememberSession(token: string, expiresAt: string) {
  const now = Date.now();
  // The lifetime as this browser's clock sees it, so a skewed clock still renews halfway.
  const lifetime = Math.max(0, Date.parse(expiresAt) - now);
  storage.set(TOKEN, token);
  storage.set(EXPIRES_AT, expiresAt);
  storage.set(RENEW_AT, String(now + lifetime / 2));
}

/** The session this tab holds, as another tab of the browser may take it (./tab-share.ts). */
export function sessionHeld(): SharedSession | undefined {
  const token = storage.get(TOKEN);
  const account = storage.get(ACCOUNT);
  const expiresAt = storage.get(EXPIRES_AT);
  return token && account && expiresAt ? { token, account, expiresAt } : undefined;
}

const due = () => Date.now() >= Number(storage.get(RENEW_AT) ?? 0);

/**
 * Listens for the editor's activity and renews the session when due. `track` lets the API client wait
 * for a renewal in flight (a call sent with the old token meets a 401 and is sent again). Returns the
 * function that stops listening.
 */
export function renewWhileActive(api: FolioClient, track: (renewal: Promise<void> | null) => void) {
  let renewing = false;
  const renew = async () => {
    const from = storage.get(TOKEN);
    const result = await api.POST('/v1/auth/refresh');
    if (result.ok && !result.notModified) {
      rememberSession(result.data.token, result.data.expiresAt);
      api.updateCredentials({ session: result.data.token });
      // The old token ended at once: the tabs that share it take the new one.
      const session = sessionHeld();
      if (from && session) tellTabs({ type: 'renewed', from, session });
    } else if (!sessionEnded(result)) {
      storage.set(RENEW_AT, String(Date.now() + RETRY_MS));
    }
    // Else the session was already over: the client has brought the sign-in back.
  };
  const onActivity = () => {
    if (renewing || !due()) return;
    renewing = true;
    const renewal = renew()
      .catch(() => storage.set(RENEW_AT, String(Date.now() + RETRY_MS)))
      .finally(() => {
        renewing = false;
        track(null);
      });
    track(renewal);
  };
  const options = { capture: true, passive: true };
  window.addEventListener('keydown', onActivity, options);
  window.addEventListener('pointerdown', onActivity, options);
  return () => {
    window.removeEventListener('keydown', onActivity, options);
    window.removeEventListener('pointerdown', onActivity, options);
  };
}
