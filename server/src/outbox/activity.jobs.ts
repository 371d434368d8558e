import type { SweepJob } from '../jobs/types.js';
import { pruneActivity } from './activity.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows deleted per statement: a long backlog goes in short transactions, not one that holds the table. */
const PRUNE_BATCH = 5_000;

/**
 * Retention (contract §8): records older than CMS_ACTIVITY_RETENTION_DAYS (default 365) are deleted.
 * Hourly; a full batch asks for an immediate re-run, so a backlog drains in consecutive ticks.
 */
export const pruneActivityLog: SweepJob = {
  name: 'prune-activity',
  everyMs: () => 60 * 60 * 1000,
  async run(ctx, now) {
    const pruned = await pruneActivity(ctx.db, now - ctx.config.activityRetentionDays * DAY_MS, PRUNE_BATCH);
    if (pruned > 0) ctx.log.info({ pruned }, 'worker: pruned old activity records');
    return pruned >= PRUNE_BATCH ? ctx.config.workerBatchSize : 0;
  },
};
