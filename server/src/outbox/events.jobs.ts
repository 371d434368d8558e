import type { Config } from '../config.js';
import type { Tx } from '../db/database.js';
import type { SweepJob } from '../jobs/types.js';
import { isoAt } from '../shared/time.js';
import { claimPendingEvents } from './events.repository.js';

/** An outbox event as its consumers see it: `data` parsed once for all of them. */
export interface DispatchedEvent {
  id: string;
  projectId: string;
  type: string;
  createdAt: string;
  data: unknown;
}

/**
 * What an event becomes in another module (webhook deliveries, deploy triggers), written in the
 * dispatch transaction. Consumers are listed in src/jobs/handlers.ts; this module knows none of them.
 */
export type EventConsumer = (
  trx: Tx,
  events: readonly DispatchedEvent[],
  context: { config: Config; now: string },
) => Promise<void>;

/**
 * The outbox's one dispatcher, in one transaction: claim pending events, hand them to every
 * consumer, and the claim stamps them dispatched. A crash before commit leaves the events pending;
 * after commit, everything they became is stored.
 */
export function dispatchEvents(consumers: readonly EventConsumer[]): SweepJob {
  return {
    name: 'dispatch-events',
    everyMs: (config) => config.workerPollMs,
    async run({ db, config }, nowMs) {
      return db.transaction().execute(async (trx) => {
        const now = isoAt(nowMs);
        const rows = await claimPendingEvents(trx, config.workerBatchSize, now);
        if (rows.length === 0) return 0;
        const events = rows.map((e) => ({
          id: e.id,
          projectId: e.projectId,
          type: e.type,
          createdAt: e.createdAt,
          data: JSON.parse(e.data) as unknown,
        }));
        for (const consume of consumers) await consume(trx, events, { config, now });
        return events.length;
      });
    },
  };
}
