import type { Db, DbOrTx } from '../../db/database.js';
import type { Outbox } from '../../outbox/index.js';
import { forbidden, unauthorized } from '../../shared/errors.js';
import type { SessionPrincipal, UserActor } from '../../shared/principals.js';
import { randomToken, sha256Hex } from '../../shared/secrets.js';
import { isoAt, isoNow } from '../../shared/time.js';
import * as invitations from './invitations.repository.js';
import * as repo from './users.repository.js';
import type { Role } from './users.table.js';

/**
 * Invitations of existing accounts (contract §23). An admin's `POST /v1/users` for an email that
 * already has an account makes a pending invitation, which grants nothing, and answers its token once;
 * the account becomes a member only when a session of that very account sends the token to
 * `POST /v1/invitations/accept`. So whoever registered the email first (perhaps a stranger who guessed
 * a new hire's address) gains nothing from the invitation without the token the admin hands to the
 * person they meant. The token: `cms_inv_` and 256 random bits, 72 hours, shown once, stored as its
 * SHA-256 only.
 */
export const INVITATION_TTL_MS = 72 * 3_600_000;
export const INVITATION_PREFIX = 'cms_inv_';

/** An invitation's token and expiry, answered once by POST /v1/users. */
export interface InvitationLink {
  invitationToken: string;
  invitationExpiresAt: string;
}

/** Issues the account's invitation to the project in the caller's transaction, voiding an older one. */
export async function issueInvitation(
  trx: DbOrTx,
  i: { projectId: string; accountId: string; role: Role; invitedBy: string; nowMs: number },
): Promise<InvitationLink> {
  const token = randomToken(INVITATION_PREFIX, 32);
  const expiresAt = isoAt(i.nowMs + INVITATION_TTL_MS);
  await invitations.putInvitation(trx, {
    projectId: i.projectId,
    accountId: i.accountId,
    role: i.role,
    tokenHash: sha256Hex(token),
    invitedBy: i.invitedBy,
    createdAt: isoAt(i.nowMs),
    expiresAt,
  });
  return { invitationToken: token, invitationExpiresAt: expiresAt };
}

/**
 * The login limiter (auth's, handed over in app.ts: auth reads accounts through this module, so this
 * one must not import auth back). Each use reserves an attempt first and counts as a failure unless it
 * succeeds, exactly as a sign-in does (contract §23: accept is rate limited as login is).
 */
export interface AttemptLimiter {
  reserve(ip: string, key: string): Promise<void>;
  fail(): Promise<void>;
  succeed(ip: string, key: string): Promise<void>;
}

/**
 * The limiter's key for accepts (its "email" column): one per route, as no account is known before the
 * token is read. Per client address: 10 failed accepts, and 100 failures of every kind, in 15 minutes.
 */
export const ACCEPT_LIMIT_KEY = 'invitation-accept';

export const VOID_INVITATION =
  'This invitation is unknown, already used, canceled or expired. Ask an admin of the project to invite you again.';
export const OTHER_ACCOUNT =
  'This invitation is for another account. Sign in with the account it was sent to, then open the link again.';

export interface AcceptedInvitation {
  projectId: string;
  role: Role;
}

export function createInvitationsService(db: Db, outbox: Outbox, limiter: AttemptLimiter) {
  const { recordActivity } = outbox;
  return {
    /**
     * The signed-in account accepts its invitation: 401 for a token that is unknown, used, canceled or
     * expired, 403 when it invites another account (the token is left as it was: the admin's link still
     * works for the right account). One transaction deletes the invitation (of two accepts racing, one
     * does; the other is 401) and adds the membership.
     */
    async accept(session: SessionPrincipal, token: string, ip: string): Promise<AcceptedInvitation> {
      await limiter.reserve(ip, ACCEPT_LIMIT_KEY);
      let accepted: AcceptedInvitation;
      try {
        accepted = await db.transaction().execute(async (trx) => {
          const tokenHash = sha256Hex(token);
          const invitation = await invitations.findInvitationByToken(trx, tokenHash);
          if (!invitation || invitation.expiresAt <= isoNow()) throw unauthorized(VOID_INVITATION);
          if (invitation.accountId !== session.accountId) throw forbidden(OTHER_ACCOUNT);
          if ((await invitations.deleteInvitationByToken(trx, tokenHash)) === 0)
            throw unauthorized(VOID_INVITATION);
          const { projectId, role } = invitation;
          await repo.insertMembership(trx, { projectId, accountId: session.accountId, role, now: isoNow() });
          const actor: UserActor = { type: 'user', id: session.accountId, email: session.email };
          await recordActivity(trx, projectId, actor, {
            action: 'user.invitation_accepted',
            target: { type: 'user', id: session.accountId },
            summary: `${session.email} accepted the invitation and joined as ${role}.`,
          });
          return { projectId, role };
        });
      } catch (err) {
        // The reservation stands as the failure, as a wrong password's does.
        await limiter.fail();
        throw err;
      }
      await limiter.succeed(ip, ACCEPT_LIMIT_KEY);
      return accepted;
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
