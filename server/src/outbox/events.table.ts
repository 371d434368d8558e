import type { Selectable } from 'kysely';

/**
 * The transactional outbox: an event is written in the same transaction as the change it
 * announces, so it exists exactly when the change does. The worker's dispatcher (events.jobs.ts)
 * hands events to their consumers (webhook deliveries, deploy triggers) and stamps `dispatchedAt`.
 */
export interface EventsTable {
  id: string;
  projectId: string;
  type: string;
  /** JSON: the event's `data` (always includes projectId). */
  data: string;
  createdAt: string;
  /** Set once the worker has turned the event into deliveries; null while pending. */
  dispatchedAt: string | null;
}

export type EventRow = Selectable<EventsTable>;
