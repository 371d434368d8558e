import type { Selectable } from 'kysely';
import type { AttemptColumns } from '../../jobs/attempts.js';

/** One call of one deploy hook, fired by a debounced trigger. */
export interface DeploysTable extends AttemptColumns {
  hookId: string;
  hookType: string;
  /** JSON array of the event types that caused the deploy. */
  reasons: string;
  requestedAt: string;
  /** JSON array of the locales whose content changed (`*`: every one); null without locales (migration 0021). */
  locales: string | null;
}

/** The pending, debounced trigger of a project: durable, so a restart does not lose a deploy. */
export interface DeployTriggersTable {
  projectId: string;
  reasons: string;
  /** JSON array of the locales the folded events changed (`*`: every one); null when none named one. */
  locales: string | null;
  firstAt: string;
  lastAt: string;
  fireAt: string;
}

export type DeployRow = Selectable<DeploysTable>;
export type DeployTriggerRow = Selectable<DeployTriggersTable>;
