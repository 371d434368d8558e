import { isoAt } from '../shared/time.js';
import { pruneFinished } from './queue.js';
import type { SweepJob } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Retention: finished webhook deliveries and deploy calls older than CMS_DELIVERY_RETENTION_DAYS
 * (default 30) are deleted; pending ones are kept whatever their age. Hourly is plenty.
 */
export const pruneAttempts: SweepJob = {
  name: 'prune-attempts',
  everyMs: () => 60 * 60 * 1000,
  async run(ctx, now) {
    const { db, config } = ctx;
    const cutoff = isoAt(now - config.deliveryRetentionDays * DAY_MS);
    const deliveries = await pruneFinished(db, 'webhookDeliveries', cutoff);
    const deploys = await pruneFinished(db, 'deploys', cutoff);
    // Never "a full batch": pruning does not ask for an immediate re-run.
    if (deliveries + deploys > 0)
      ctx.log.info({ deliveries, deploys }, 'worker: pruned old delivery records');
    return 0;
  },
};
