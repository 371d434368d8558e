import type { Selectable } from 'kysely';
import type { ActivityAction, ActivityTargetType } from './activity.actions.js';

/**
 * One change, recorded in the transaction that made it. The actor is stored flat so each filter is
 * one indexed column: `actorId` is the user's or key's id, and for `system` the id of the member the
 * work was done for (so `?actorId=` finds a member's scheduled publishes too); `actorName` is the
 * email or key name as it was at that moment. The `site` actor has neither.
 */
export interface ActivityTable {
  id: string;
  projectId: string;
  at: string;
  action: ActivityAction;
  actorType: 'user' | 'apiKey' | 'site' | 'system';
  actorId: string | null;
  actorName: string | null;
  targetType: ActivityTargetType;
  targetId: string;
  summary: string;
  /** The locale the change was made in; null when it concerns no one locale or the project has none (§14). */
  locale: string | null;
}

export type ActivityRow = Selectable<ActivityTable>;
