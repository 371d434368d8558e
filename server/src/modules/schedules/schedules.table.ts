import type { Selectable } from 'kysely';

export type ScheduleAction = 'publish' | 'unpublish';
export type ScheduleStatus = 'pending' | 'done' | 'failed' | 'canceled';

/**
 * A publish or unpublish to run at `at` (contract §9): of one entry (`entryId`) or of every draft of a
 * page (`pageId`); exactly one of the two is set. `createdBy` is the member it runs for, with the
 * email it had then (as history rows keep it). `executedAt` is when the worker ran it (done or
 * failed); `error` why it failed, and `problems` every rule it broke when rules refused it.
 */
export interface SchedulesTable {
  id: string;
  projectId: string;
  action: ScheduleAction;
  entryId: string | null;
  pageId: string | null;
  /** The page it acts on: `pageId`, or the entry's page (internal: orders a page's schedules). */
  targetPageId: string;
  at: string;
  status: ScheduleStatus;
  createdBy: string;
  createdByEmail: string;
  createdAt: string;
  executedAt: string | null;
  error: string | null;
  /** A publish refused by rules: JSON `[{ entryId, locale, path, message }]` (contract §17); else null. */
  problems: string | null;
  /** The locale it publishes or unpublishes, a code or `*` (every locale); null without locales (§14). */
  locale: string | null;
}

export type ScheduleRow = Selectable<SchedulesTable>;
