import type { SweepJob } from '../../jobs/types.js';
import { isoAt } from '../../shared/time.js';
import { deleteExpired } from './preview.repository.js';

/**
 * Expired preview tokens are refused on read already (the lookup compares `expiresAt`); this sweep
 * only keeps the table small. Hourly is plenty: a token lives at most a day.
 */
export const prunePreviewTokens: SweepJob = {
  name: 'prune-preview-tokens',
  everyMs: () => 60 * 60 * 1000,
  async run(ctx, now) {
    const pruned = await deleteExpired(ctx.db, isoAt(now));
    if (pruned > 0) ctx.log.info({ pruned }, 'worker: pruned expired preview tokens');
    return 0; // never "a full batch": pruning does not ask for an immediate re-run
  },
};
