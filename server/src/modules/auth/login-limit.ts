import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { rateLimited } from '../../shared/errors.js';
import { isoAt } from '../../shared/time.js';
import * as repo from './auth.repository.js';

/**
 * Login throttling (contract §2): 10 failures in 15 minutes for one (client address, email) pair and
 * 100 for one client address. Counted in the database, not in memory, so every instance behind the
 * load balancer sees the same count. Only failures count: a user who signs in is never locked out
 * by their own earlier typos, and a success clears the pair's record.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const PAIR_LIMIT = 10;
export const ADDRESS_LIMIT = 100;

export function createLoginLimiter(db: Db, now: () => number = Date.now) {
  return {
    async check(ip: string, email: string): Promise<void> {
      const t = now();
      const since = isoAt(t - LOGIN_WINDOW_MS);
      const [pair, address] = await Promise.all([
        repo.failuresSince(db, since, ip, email),
        repo.failuresSince(db, since, ip),
      ]);
      const blocked =
        pair.count >= PAIR_LIMIT ? pair.oldest : address.count >= ADDRESS_LIMIT ? address.oldest : null;
      if (blocked) {
        // The window slides: the oldest failure in it is the next to expire.
        const retryAfter = Math.max(1, Math.ceil((Date.parse(blocked) + LOGIN_WINDOW_MS - t) / 1000));
        throw rateLimited(retryAfter, 'Too many failed sign-in attempts. Try again later.');
      }
    },

    async fail(ip: string, email: string): Promise<void> {
      const t = now();
      await repo.recordFailure(db, { id: randomUUID(), ip, email, createdAt: isoAt(t) });
      await repo.pruneFailures(db, isoAt(t - LOGIN_WINDOW_MS));
    },

    succeed: (ip: string, email: string) => repo.clearFailures(db, ip, email),
  };
}

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
