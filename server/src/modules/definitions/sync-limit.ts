import type { Db } from '../../db/database.js';
import { rateLimited } from '../../shared/errors.js';
import { isoAt } from '../../shared/time.js';
import * as repo from './definitions.repository.js';

const WINDOW_MS = 60_000;

/**
 * The per-project limit on syncs made with the publishable key (contract §11,
 * CMS_SYNC_LIMIT_PER_MINUTE). Counted in the database in fixed one-minute windows, so every
 * instance shares one count (an in-memory limiter would allow N × the limit behind N instances).
 * A fixed window lets a burst straddling a minute boundary reach twice the limit in 60 s; that is
 * still a hard ceiling, and it costs one statement per sync instead of a log of attempts.
 */
export function createSyncLimiter(db: Db, perMinute: number, now: () => number = Date.now) {
  return {
    async hit(projectId: string): Promise<void> {
      const t = now();
      const start = Math.floor(t / WINDOW_MS) * WINDOW_MS;
      const count = await repo.countSync(db, projectId, isoAt(start));
      // The first sync of a window clears the project's older ones: the table stays one row a project.
      if (count === 1) await repo.pruneSyncCounts(db, projectId, isoAt(start));
      if (count > perMinute) {
        const retryAfter = Math.max(1, Math.ceil((start + WINDOW_MS - t) / 1000));
        throw rateLimited(
          retryAfter,
          `Too many definition syncs with the publishable key for this project (at most ${perMinute} a minute).`,
        );
      }
    },
  };
}

export type SyncLimiter = ReturnType<typeof createSyncLimiter>;
