import type { Db, Tx } from '../../db/database.js';
import type { Outbox } from '../../outbox/index.js';
import { invalidCredentials, notFound, unauthorized } from '../../shared/errors.js';
import { hashPassword, normalizeEmail, verifyPassword } from '../../shared/passwords.js';
import type { SessionPrincipal } from '../../shared/principals.js';
import { randomToken, sha256Hex } from '../../shared/secrets.js';
import { isoAt, isoNow } from '../../shared/time.js';
import * as projects from '../projects/index.js';
import * as users from '../users/index.js';
import * as repo from './auth.repository.js';
import type { LoginLimiter } from './login-limit.js';
import { consumeSetPasswordLink, SET_PASSWORD_LIMIT_KEY, usableSetPasswordLink } from './set-password.js';

export interface Me {
  id: string;
  email: string;
  name: string;
  projects: { id: string; name: string; role: 'admin' | 'editor' }[];
}

/**
 * The account's password hash, or null for an account created without a password (an invitation
 * whose set-password link is not used yet, stored as ''): it verifies against the dummy hash, so
 * signing in to it fails in the same time as a wrong password.
 */
const storedHash = (account: { passwordHash: string }): string | null => account.passwordHash || null;

export interface IssuedSession {
  token: string;
  expiresAt: string;
}

/** What the auth service tells other modules (wired in app.ts). */
export interface AuthHooks {
  /**
   * After an account's password changed (its owner's change, or a set-password link), once the change
   * is committed: what else must end with the old password (contract §17: the preview tokens the
   * account created).
   */
  onPasswordChanged(accountId: string): Promise<void>;
}

export function createAuthService(
  db: Db,
  outbox: Outbox,
  limiter: LoginLimiter,
  sessionTtlSeconds: number,
  hooks: AuthHooks,
) {
  const { recordActivity } = outbox;
  /** 256 random bits; only the SHA-256 is stored, so a database leak yields no usable session. */
  async function issue(accountId: string, trx: Db = db): Promise<IssuedSession> {
    const token = randomToken('', 32);
    const now = Date.now();
    const expiresAt = isoAt(now + sessionTtlSeconds * 1000);
    await repo.insertSession(trx, {
      tokenHash: sha256Hex(token),
      accountId,
      createdAt: isoAt(now),
      expiresAt,
    });
    return { token, expiresAt };
  }

  async function me(accountId: string): Promise<Me> {
    const account = await users.findAccountById(db, accountId);
    if (!account) throw notFound('Account');
    const memberships = await projects.projectsOfAccount(db, accountId);
    return {
      id: account.id,
      email: account.email,
      name: account.name,
      projects: memberships.map((p) => ({ id: p.id, name: p.name, role: p.role })),
    };
  }

  /**
   * The account's new password, in the caller's transaction: every session but `keepTokenHash` ends,
   * and user.password_changed is recorded in each of its projects (`how` completes the summary).
   */
  async function replacePassword(
    trx: Tx,
    account: { id: string; email: string },
    passwordHash: string,
    how: string,
    keepTokenHash?: string,
  ): Promise<void> {
    await users.setAccountPassword(trx, account.id, passwordHash, isoNow());
    await repo.deleteSessionsOfAccount(trx, account.id, keepTokenHash);
    await recordActivity(
      trx,
      await users.projectIdsOfAccount(trx, account.id),
      { type: 'user', id: account.id, email: account.email },
      {
        action: 'user.password_changed',
        target: { type: 'user', id: account.id },
        summary: `${account.email} ${how}; their other sessions were ended.`,
      },
    );
  }

  return {
    me,

    async login(input: { email: string; password: string }, ip: string) {
      const email = normalizeEmail(input.email);
      await limiter.reserve(ip, email);
      const account = await users.findAccountByEmail(db, email);
      // Unknown email and wrong password take the same path and the same time (one argon2 verify).
      const ok = await verifyPassword(account ? storedHash(account) : null, input.password);
      if (!account || !ok) {
        await limiter.fail();
        throw invalidCredentials();
      }
      await limiter.succeed(ip, email);
      await repo.deleteExpiredSessions(db, account.id, isoNow());
      const session = await issue(account.id);
      return { user: await me(account.id), ...session };
    },

    /**
     * The owner changes their password (contract §15). The current password is checked as a sign-in
     * is, through the login limiter (a stolen session must not become a password oracle): a wrong one
     * is 401 invalid_credentials and counts as a failed sign-in. Success ends every other session of
     * the account, records user.password_changed in each of its projects, and then runs the hook.
     */
    async changePassword(
      session: SessionPrincipal,
      input: { currentPassword: string; newPassword: string },
      ip: string,
    ): Promise<{ changed: true }> {
      await limiter.reserve(ip, session.email);
      const account = await users.findAccountById(db, session.accountId);
      if (!account || !(await verifyPassword(storedHash(account), input.currentPassword))) {
        await limiter.fail();
        throw invalidCredentials();
      }
      await limiter.succeed(ip, session.email);
      const passwordHash = await hashPassword(input.newPassword); // slow: outside the transaction
      await db
        .transaction()
        .execute((trx) =>
          replacePassword(trx, account, passwordHash, 'changed their password', session.tokenHash),
        );
      await hooks.onPasswordChanged(account.id);
      return { changed: true };
    },

    /**
     * A set-password link used (contract §15): sets the password, ends every session of the account,
     * consumes the link and signs in, answering as login does. The link is checked before the slow
     * hash (an unknown token costs one indexed read) and again in the transaction that consumes it.
     * Each use goes through the login limiter under the key `set-password`.
     */
    async setPassword(input: { token: string; password: string }, ip: string) {
      // Rate limited as a sign-in is (contract §23): reserved first, a refusal stands as a failure.
      await limiter.reserve(ip, SET_PASSWORD_LIMIT_KEY);
      let accountId: string;
      try {
        await usableSetPasswordLink(db, input.token, isoNow());
        const passwordHash = await hashPassword(input.password);
        accountId = await db.transaction().execute(async (trx) => {
          const link = await usableSetPasswordLink(trx, input.token, isoNow());
          await consumeSetPasswordLink(trx, link);
          const account = await users.findAccountById(trx, link.accountId);
          if (!account) throw notFound('Account');
          await replacePassword(trx, account, passwordHash, 'set their password with a set-password link');
          return account.id;
        });
      } catch (err) {
        await limiter.fail();
        throw err;
      }
      await limiter.succeed(ip, SET_PASSWORD_LIMIT_KEY);
      await hooks.onPasswordChanged(accountId);
      const session = await issue(accountId);
      return { user: await me(accountId), ...session };
    },
    async logout(session: SessionPrincipal): Promise<void> {
      await repo.deleteSession(db, session.tokenHash);
    },

    /** A new token for the same account; the presented one stops working at once. */
    refresh(session: SessionPrincipal): Promise<IssuedSession> {
      return db.transaction().execute(async (trx) => {
        // Two refreshes racing with one token: only the one that deletes it gets a new token.
        if ((await repo.deleteSession(trx, session.tokenHash)) === 0)
          throw unauthorized('The session has ended.');
        return issue(session.accountId, trx);
      });
    },

    resolveSession: (token: string) => repo.findLiveSession(db, sha256Hex(token), isoNow()),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
