import type { Db } from '../../db/database.js';
import { invalidCredentials, notFound, unauthorized } from '../../shared/errors.js';
import { normalizeEmail, verifyPassword } from '../../shared/passwords.js';
import type { SessionPrincipal } from '../../shared/principals.js';
import { randomToken, sha256Hex } from '../../shared/secrets.js';
import { isoAt, isoNow } from '../../shared/time.js';
import * as projects from '../projects/index.js';
import * as users from '../users/index.js';
import * as repo from './auth.repository.js';
import type { LoginLimiter } from './login-limit.js';

export interface Me {
  id: string;
  email: string;
  name: string;
  projects: { id: string; name: string; role: 'admin' | 'editor' }[];
}

export interface IssuedSession {
  token: string;
  expiresAt: string;
}

export function createAuthService(db: Db, limiter: LoginLimiter, sessionTtlSeconds: number) {
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

  return {
    me,

    async login(input: { email: string; password: string }, ip: string) {
      const email = normalizeEmail(input.email);
      await limiter.reserve(ip, email);
      const account = await users.findAccountByEmail(db, email);
      // Unknown email and wrong password take the same path and the same time (one argon2 verify).
      const ok = await verifyPassword(account?.passwordHash ?? null, input.password);
      if (!account || !ok) {
        await limiter.fail();
        throw invalidCredentials();
      }
      await limiter.succeed(ip, email);
      await repo.deleteExpiredSessions(db, account.id, isoNow());
      const session = await issue(account.id);
      return { user: await me(account.id), ...session };
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
