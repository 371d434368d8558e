import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { unauthorized } from '../../shared/errors.js';
import { membershipsView, type Role } from '../users/index.js';

/**
 * A session the auth hook let through on remembered facts (src/http/session-hints.ts) instead of
 * reading them: the write it authorises re-reads them in its own first statement, so a revoked
 * session is refused there. See server/docs/api.md, "Sessions on the write path".
 */
export interface SessionCheck {
  tokenHash: string;
  projectId: string;
  /** The roles that may make this request. */
  roles: readonly Role[];
  /** Set by verifySessionCheck once the write's statement confirmed the session. */
  verified?: boolean;
}

/**
 * The session's current role in the project, or null when the session has ended (signed out,
 * refreshed, expired, password changed, account removed) or the account is no longer a member:
 * one probe of the sessions primary key and one of the memberships primary key, as a column of
 * the statement the write makes anyway.
 */
export const checkedRole = (db: DbOrTx, check: SessionCheck, now: string) =>
  roleOfSession(db, check, now).as('checkedRole');

/**
 * The same check as a condition of the write itself: true only while the session may make the
 * request. For a write that is one statement (content's optimistic publish): a row it does not
 * match is not written, and the writer marks the check verified only when a row was.
 */
export const sessionAllows = (db: DbOrTx, check: SessionCheck, now: string) =>
  check.roles.length === 0
    ? sql<boolean>`false` // as verifySessionCheck: no role may; `in ()` is not SQL
    : sql<boolean>`(${roleOfSession(db, check, now)}) in (${sql.join(check.roles.map((role) => sql.val(role)))})`;

const roleOfSession = (db: DbOrTx, check: SessionCheck, now: string) =>
  db
    .selectFrom('sessions')
    .innerJoin(membershipsView(db).as('memberships'), 'memberships.accountId', 'sessions.accountId')
    .select('memberships.role')
    .where('sessions.tokenHash', '=', check.tokenHash)
    .where('sessions.expiresAt', '>', now)
    .where('memberships.projectId', '=', check.projectId);

/** Throws (401) unless `role`, read by checkedRole in the write's statement, may make the request. */
export function verifySessionCheck(check: SessionCheck | undefined, role: string | null | undefined): void {
  if (!check) return;
  if (role == null || !check.roles.includes(role as Role)) {
    // The error handler then authenticates the request afresh, and answers 401 or 403 as it finds.
    throw unauthorized('The session token is invalid or has expired.');
  }
  check.verified = true;
}

/** Marks the check verified by a write whose statement carried sessionAllows and wrote a row. */
export function sessionCheckPassed(check: SessionCheck | undefined): void {
  if (check) check.verified = true;
}
