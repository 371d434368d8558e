/**
 * The outbox: what happened, written in the transaction of the change that made it. Two records per
 * change, both owned here: the activity log (for people, read back by modules/activity) and the
 * events (for machines: the worker dispatches them to webhooks and deploy triggers). A layer beside
 * jobs/ rather than a module, because every module writes it and none owns it.
 *
 * Services write through one port, `Outbox`, handed to them in src/app.ts (and src/jobs/handlers.ts);
 * its functions keep the argument shapes they had as repository functions, so a service unpacks the
 * ones it uses (`const { recordActivity } = outbox`) and calls them as before.
 */
import { activityWrite, recordActivity } from './activity.repository.js';
import { enqueueEvent, eventWrite } from './events.repository.js';

export interface Outbox {
  /** Writes the activity records of one change, in its transaction. */
  recordActivity: typeof recordActivity;
  /** An activity record not yet written, for a writer that folds it into its own statement. */
  activityWrite: typeof activityWrite;
  /** Writes an event, in the transaction of the change it announces; returns its id. */
  enqueueEvent: typeof enqueueEvent;
  /** An event not yet written, for a writer that folds it into its own statement. */
  eventWrite: typeof eventWrite;
}

export const outbox: Outbox = { recordActivity, activityWrite, enqueueEvent, eventWrite };

export type { ActivityAction, ActivityTargetType } from './activity.actions.js';
export { ACTIVITY_ACTIONS } from './activity.actions.js';
export { actorLabel } from './activity.describe.js';
export { pruneActivityLog } from './activity.jobs.js';
export { type ActivityFilters, type ActivityRecord, listActivity } from './activity.repository.js';
export type { ActivityRow } from './activity.table.js';
export { DEPLOY_TRIGGERS, EVENT_TYPES, type EventType, isInternalEvent } from './event-types.js';
export { type DispatchedEvent, dispatchEvents, type EventConsumer } from './events.jobs.js';
export { outboxBacklog } from './events.repository.js';
