import type { DbOrTx } from '../../db/database.js';
import { forbidden, unauthorized } from '../../shared/errors.js';
import { randomToken, sha256Hex } from '../../shared/secrets.js';
import { isoAt } from '../../shared/time.js';
import * as users from '../users/index.js';
import { NOT_EVERY_PROJECT } from '../users/index.js';
import * as repo from './auth.repository.js';
import type { SetPasswordTokensTable } from './auth.table.js';

/** The login limiter's key for set-password uses: one per route (no account is known before the link). */
export const SET_PASSWORD_LIMIT_KEY = 'set-password';

/**
 * Set-password links (contract §15, §17): an admin hands one to a new member instead of a password
 * (an invitation), or to a member who lost theirs (a reset). The token is shown once; only its
 * SHA-256 is stored; it lasts 72 hours, and one use consumes it.
 */
export const SET_PASSWORD_TTL_MS = 72 * 3_600_000;
export const SET_PASSWORD_PREFIX = 'cms_sp_';

export interface SetPasswordLink {
  setPasswordToken: string;
  setPasswordExpiresAt: string;
}

/**
 * Issues a link for the account, in the caller's transaction; a newer link voids the older one. The
 * caller has checked the issuer's right (users.administersEveryProjectOf) in the same transaction.
 */
export async function issueSetPasswordLink(
  trx: DbOrTx,
  accountId: string,
  issuerId: string,
  nowMs: number,
): Promise<SetPasswordLink> {
  const token = randomToken(SET_PASSWORD_PREFIX, 32);
  const expiresAt = isoAt(nowMs + SET_PASSWORD_TTL_MS);
  await repo.replaceSetPasswordToken(trx, {
    tokenHash: sha256Hex(token),
    accountId,
    issuedBy: issuerId,
    createdAt: isoAt(nowMs),
    expiresAt,
  });
  return { setPasswordToken: token, setPasswordExpiresAt: expiresAt };
}

const VOID_LINK = 'This set-password link is unknown, already used or expired. Ask an admin for a new one.';

/**
 * The stored link a token names, if it may still be used: 401 when it is unknown or expired; 403 when
 * its issuer no longer administers every project of the account (an account that joined another
 * project since, by accepting an invitation there, is no longer the issuer's alone). A link is no
 * longer void merely because its account gained a membership after it was issued (contract §23
 * withdraws that rule of §17: any admin could add an email to their own project and so void the
 * invitation another project had sent it); memberships now come only from the account's own accept.
 */
export async function usableSetPasswordLink(
  db: DbOrTx,
  token: string,
  now: string,
): Promise<SetPasswordTokensTable> {
  const link = await repo.findSetPasswordToken(db, sha256Hex(token));
  if (!link || link.expiresAt <= now) throw unauthorized(VOID_LINK);
  if (!(await users.administersEveryProjectOf(db, link.issuedBy, link.accountId))) {
    throw forbidden(`${NOT_EVERY_PROJECT} Whoever issued this one no longer does: ask for a new link.`);
  }
  return link;
}

/** Consumes the link in the caller's transaction: 401 when a concurrent use consumed it first. */
export async function consumeSetPasswordLink(trx: DbOrTx, link: SetPasswordTokensTable): Promise<void> {
  if ((await repo.deleteSetPasswordToken(trx, link.tokenHash)) === 0) throw unauthorized(VOID_LINK);
}
