import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { serializedOn } from '../../db/dialect/index.js';
import { rateLimited } from '../../shared/errors.js';
import { isoAt } from '../../shared/time.js';
import * as repo from './auth.repository.js';

/**
 * Login throttling (contract §2): 10 failures in 15 minutes for one (client address, email) pair and
 * 100 for one client address. Counted in the database, not in memory, so every instance behind the
 * load balancer sees the same count. Only failures count: a user who signs in is never locked out
 * by their own earlier typos, and a success clears the pair's record.
 *
 * Each attempt is reserved before its password is verified: the count and the insert of a row
 * (the failure, presumed) happen in one transaction serialised per client address on every instance
 * (serializedOn), and a success then clears it. Checking first and writing the failure after the
 * argon2 verify let every one of 40 parallel guesses through (issue 10); now at most the limit is
 * ever verified, whatever the concurrency. The per-address lock covers both limits, since a pair is
 * one of its address's keys.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const PAIR_LIMIT = 10;
export const ADDRESS_LIMIT = 100;

export function createLoginLimiter(db: Db, now: () => number = Date.now) {
  return {
    /** Throws 429 when a limit is reached; otherwise records this attempt as a failure. */
    async reserve(ip: string, email: string): Promise<void> {
      const t = now();
      const since = isoAt(t - LOGIN_WINDOW_MS);
      const attempt = { id: randomUUID(), ip, email, createdAt: isoAt(t) };
      // Under the lock: one guarded insert, so the section every instance waits for is short.
      const reserved = await serializedOn(db, `login:${ip}`, (trx) =>
        repo.reserveAttempt(trx, attempt, since, { pair: PAIR_LIMIT, address: ADDRESS_LIMIT }),
      );
      if (reserved) return;
      const [pair, address] = await Promise.all([
        repo.failuresSince(db, since, ip, email),
        repo.failuresSince(db, since, ip),
      ]);
      // The window slides: the oldest failure in it is the next to expire.
      const oldest = (pair.count >= PAIR_LIMIT ? pair.oldest : address.oldest) ?? isoAt(t);
      const retryAfter = Math.max(1, Math.ceil((Date.parse(oldest) + LOGIN_WINDOW_MS - t) / 1000));
      throw rateLimited(retryAfter, 'Too many failed sign-in attempts. Try again later.');
    },

    /** The reservation stands as the failure; expired ones are dropped on the way. */
    fail: () => repo.pruneFailures(db, isoAt(now() - LOGIN_WINDOW_MS)),

    succeed: (ip: string, email: string) => repo.clearFailures(db, ip, email),
  };
}

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
