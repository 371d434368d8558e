import type { Db, DbOrTx } from '../../db/database.js';
import { actorLabel, type Outbox } from '../../outbox/index.js';
import { AppError, notFound, type PublishProblem } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { type Locales, requestedLocale } from '../../shared/locales.js';
import type { UserActor } from '../../shared/principals.js';
import { isoAt } from '../../shared/time.js';
import * as repo from './schedules.repository.js';
import {
  checkScheduleInput,
  decodeScheduleCursor,
  type ScheduleInput,
  type ScheduleTarget,
} from './schedules.rules.js';
import type { ScheduleRow, ScheduleStatus } from './schedules.table.js';

/**
 * What schedules ask of content about their targets (content's `contentTargets`, handed over in
 * app.ts and jobs/handlers.ts): an entry of the project, its page and the words that name it, or
 * null; and whether a page exists (it has an entry or a definition).
 */
export interface ScheduleTargets {
  entry(db: DbOrTx, projectId: string, entryId: string): Promise<{ pageId: string; label: string } | null>;
  pageExists(db: DbOrTx, projectId: string, pageId: string): Promise<boolean>;
}

/** A schedule as the API shows it (contract §9). */
export function toSchedule(row: ScheduleRow) {
  return {
    id: row.id,
    action: row.action,
    entryId: row.entryId,
    pageId: row.pageId,
    at: row.at,
    status: row.status,
    createdBy: { id: row.createdBy, email: row.createdByEmail },
    createdAt: row.createdAt,
    executedAt: row.executedAt,
    ...(row.locale !== null && { locale: row.locale }),
    error: row.error,
    ...(row.problems !== null && { problems: JSON.parse(row.problems) as PublishProblem[] }),
  };
}

export type Schedule = ReturnType<typeof toSchedule>;

/** "publishing hero (Hero) on /", "publishing the drafts of page /about": for summaries. */
export function describeSchedule(row: Pick<ScheduleRow, 'action' | 'pageId'>, entryLabel: string): string {
  const doing = row.action === 'publish' ? 'publishing' : 'unpublishing';
  return row.pageId !== null ? `${doing} the drafts of page ${row.pageId}` : `${doing} ${entryLabel}`;
}

const ALREADY: Record<Exclude<ScheduleStatus, 'pending'>, string> = {
  done: 'This schedule has already run.',
  failed: 'This schedule has already run, and failed.',
  canceled: 'This schedule was already canceled.',
};

/**
 * Scheduled publishing (contract §9): creating, listing and canceling schedules. Running them is
 * the worker's (schedules.jobs.ts). Each write is one transaction with its activity record.
 */
export function createSchedulesService(
  db: Db,
  outbox: Outbox,
  targets: ScheduleTargets,
  /** The project's locales (contract §14; the site cache): a schedule acts in one locale or `*`. */
  localesOf: (projectId: string) => Promise<Locales | null> = async () => null,
) {
  const { recordActivity } = outbox;
  /** The target's page and its words for summaries; 404 when the entry or page is not in the project. */
  async function find(
    trx: DbOrTx,
    projectId: string,
    target: ScheduleTarget,
  ): Promise<{ pageId: string; label: string }> {
    if (target.entryId !== null) {
      const entry = await targets.entry(trx, projectId, target.entryId);
      if (!entry) throw notFound('Entry');
      return entry;
    }
    if (!(await targets.pageExists(trx, projectId, target.pageId))) throw notFound('Page');
    return { pageId: target.pageId, label: `page ${target.pageId}` };
  }

  return {
    /**
     * A pending schedule of an existing entry or page. The time rules are checked against this
     * process's clock at the request; the worker runs it by the database's (schedules.jobs.ts).
     */
    async create(projectId: string, input: ScheduleInput, actor: UserActor): Promise<Schedule> {
      const now = Date.now();
      const { target, at } = checkScheduleInput(input, now);
      // The locale it acts in (§14): a code of the project's, `*`, or (none asked) the default; 400 otherwise.
      const locales = await localesOf(projectId);
      const locale =
        input.locale === '*' && locales
          ? '*'
          : requestedLocale(locales, input.locale === '*' ? '' : input.locale, 'body.locale');
      return db.transaction().execute(async (trx) => {
        const { pageId, label } = await find(trx, projectId, target);
        const row: ScheduleRow = {
          id: newId('sch', now),
          projectId,
          action: input.action,
          ...target,
          targetPageId: pageId,
          at,
          status: 'pending',
          createdBy: actor.id,
          createdByEmail: actor.email,
          createdAt: isoAt(now),
          executedAt: null,
          error: null,
          problems: null,
          locale,
        };
        await repo.insertSchedule(trx, row);
        await recordActivity(
          trx,
          projectId,
          actor,
          {
            action: 'schedule.created',
            target: { type: 'schedule', id: row.id },
            summary: `${actorLabel(actor)} scheduled ${describeSchedule(row, label)}${locale ? ` in ${locale}` : ''} for ${at}.`,
            ...(locale !== null && { locale }),
          },
          now,
        );
        return toSchedule(row);
      });
    },

    /**
     * One page of the project's schedules, one row more than `limit` when more remain: pending ones
     * by `at` (soonest first), then the others newest first (see SchedulePosition for the cursor).
     */
    async list(
      projectId: string,
      query: { status?: ScheduleStatus; limit: number; cursor?: string },
    ): Promise<Schedule[]> {
      const { status, limit } = query;
      const position = decodeScheduleCursor(query.cursor, status);
      const rows: ScheduleRow[] = [];
      if ((status === undefined || status === 'pending') && position?.part !== 'past') {
        const after = position?.part === 'pending' ? position : undefined;
        rows.push(...(await repo.pendingSchedules(db, projectId, after, limit + 1)));
      }
      if (status !== 'pending' && rows.length <= limit) {
        const before = position?.part === 'past' ? position.id : undefined;
        rows.push(...(await repo.pastSchedules(db, projectId, status, before, limit + 1 - rows.length)));
      }
      return rows.map(toSchedule);
    },

    /**
     * Cancels a pending schedule; 404 when the project has no such schedule, 409 when it already ran
     * (or failed, or was canceled). Serialised with the worker on the row (repository), so a
     * schedule is either canceled or run, never both.
     */
    cancel(projectId: string, id: string, actor: UserActor): Promise<{ id: string; deleted: true }> {
      return db.transaction().execute(async (trx) => {
        const row = await repo.cancelPending(trx, projectId, id);
        if (!row) {
          const existing = await repo.findSchedule(trx, projectId, id);
          if (!existing) throw notFound('Schedule');
          const status = existing.status as Exclude<ScheduleStatus, 'pending'>;
          throw new AppError('conflict', 409, ALREADY[status], { status });
        }
        const entry = row.entryId !== null ? await targets.entry(trx, projectId, row.entryId) : null;
        await recordActivity(trx, projectId, actor, {
          action: 'schedule.canceled',
          target: { type: 'schedule', id: row.id },
          summary: `${actorLabel(actor)} canceled ${describeSchedule(row, entry?.label ?? `entry ${row.entryId}`)} at ${row.at}.`,
        });
        return { id: row.id, deleted: true as const };
      });
    },
  };
}

export type SchedulesService = ReturnType<typeof createSchedulesService>;
