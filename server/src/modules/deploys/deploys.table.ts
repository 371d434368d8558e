import type { Selectable } from 'kysely';
import type { AttemptColumns } from '../../jobs/attempts.js';

/** One call of one deploy hook, fired by a debounced trigger. */
export interface DeploysTable extends AttemptColumns {
  hookId: string;
  hookType: string;
  /** JSON array of the event types that caused the deploy. */
  reasons: string;
  requestedAt: string;
}

/** The pending, debounced trigger of a project: durable, so a restart does not lose a deploy. */
export interface DeployTriggersTable {
  projectId: string;
  reasons: string;
  firstAt: string;
  lastAt: string;
  fireAt: string;
}

export type DeployRow = Selectable<DeploysTable>;
export type DeployTriggerRow = Selectable<DeployTriggersTable>;
