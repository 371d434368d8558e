import type { Role } from '../modules/users/index.js';
import type { SessionPrincipal } from '../shared/principals.js';

/**
 * What this instance last read about sessions: token → principal, (account, project) → role. Never
 * trusted on its own: only routes whose rule says `sessionCheckedInWrite` use it, and there the
 * write's first statement re-reads both (src/modules/auth/session-check.ts). It saves those routes
 * the two lookups of every request, and needs no invalidation: a stale entry makes the write fail
 * its check, and that request is then authenticated afresh (see server/docs/api.md, "Sessions on
 * the write path"). Bounded: the oldest entries go first.
 */
export interface SessionHints {
  session(token: string): SessionPrincipal | undefined;
  role(accountId: string, projectId: string): Role | undefined;
  remember(token: string, session: SessionPrincipal): void;
  rememberRole(accountId: string, projectId: string, role: Role): void;
  forget(token: string): void;
}

export function createSessionHints(max = 10_000): SessionHints {
  const sessions = new Map<string, SessionPrincipal>();
  const roles = new Map<string, Role>();
  const put = <V>(map: Map<string, V>, key: string, value: V) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > max) map.delete(map.keys().next().value as string);
  };
  return {
    session: (token) => sessions.get(token),
    role: (accountId, projectId) => roles.get(`${accountId} ${projectId}`),
    remember: (token, session) => put(sessions, token, session),
    rememberRole: (accountId, projectId, role) => put(roles, `${accountId} ${projectId}`, role),
    forget: (token) => void sessions.delete(token),
  };
}
