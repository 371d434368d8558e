import type { Db } from '../../db/database.js';
import { rateLimited } from '../../shared/errors.js';
import { isoAt } from '../../shared/time.js';
import * as repo from './rate-limits.repository.js';

export interface WindowLimit {
  /** Names the limit in the shared table (`definitions_sync`, `project_create`); keys never mix. */
  scope: string;
  /** Requests allowed per subject per window. */
  limit: number;
  windowMs: number;
  /** The 429's message. */
  message: string;
}

/**
 * A limit counted in the database in fixed windows, so every instance shares one count: an
 * in-memory limiter (what @fastify/rate-limit keeps) would allow N × the limit behind N instances.
 * Used by the publishable-key definitions sync (per project, contract §11) and by unauthenticated
 * project creation (per client address). The login limit is a different shape on purpose (a sliding
 * log of failures, reserved before the password is verified; src/modules/auth/login-limit.ts).
 *
 * A fixed window lets a burst straddling a boundary reach twice the limit in one window's length;
 * that is still a hard ceiling, and it costs one statement per request instead of a log of
 * attempts. The first request of a window prunes every finished window (of any subject), so the table
 * holds roughly one row per subject active in the current window.
 */
/** Subjects remembered as over their limit (see `spent`): some 100 bytes each. */
const SPENT_MAX = 10_000;

export function createWindowLimiter(db: Db, options: WindowLimit, now: () => number = Date.now) {
  const { scope, limit, windowMs, message } = options;
  /**
   * Subjects this instance saw over the limit, with the end of that window. A window's count only
   * grows, so until its end every further request is refused without a statement: a client that
   * keeps sending after its 429 costs no database write per request (on PostgreSQL each was a row
   * lock on one hot row). Bounded: at most SPENT_MAX subjects; past it, ended windows are dropped,
   * and if none has ended the subject is simply counted in the database as before.
   */
  const spent = new Map<string, number>();
  const refuse = (start: number, t: number) =>
    rateLimited(Math.max(1, Math.ceil((start + windowMs - t) / 1000)), message);
  return {
    /** Counts one request of `subject`; throws 429 with Retry-After once it is over the limit. */
    async hit(subject: string): Promise<void> {
      const t = now();
      const start = Math.floor(t / windowMs) * windowMs;
      if (spent.get(subject) === start + windowMs) throw refuse(start, t);
      const count = await repo.countHit(db, {
        key: `${scope}:${subject}`,
        windowStart: isoAt(start),
        expiresAt: isoAt(start + windowMs),
      });
      if (count === 1) await repo.pruneExpired(db, isoAt(start));
      if (count > limit) {
        if (spent.size >= SPENT_MAX) for (const [key, end] of spent) if (end <= t) spent.delete(key);
        if (spent.size < SPENT_MAX) spent.set(subject, start + windowMs);
        throw refuse(start, t);
      }
    },
  };
}

export type WindowLimiter = ReturnType<typeof createWindowLimiter>;
