import { decodeCursor, encodeCursor } from '../../shared/cursor.js';
import { type FieldProblem, validationFailed } from '../../shared/errors.js';
import { isoAt } from '../../shared/time.js';
import type { ScheduleAction, ScheduleStatus } from './schedules.table.js';

/** What POST /v1/schedules takes (contract §9), after its schema. */
export interface ScheduleInput {
  action: ScheduleAction;
  entryId?: string | null;
  pageId?: string | null;
  at: string;
  locale?: string;
}

export type ScheduleTarget = { entryId: string; pageId: null } | { entryId: null; pageId: string };

/** The latest `at` accepted at `now`: the same date and time one year later (UTC). */
export function latestAt(now: number): number {
  const limit = new Date(now);
  limit.setUTCFullYear(limit.getUTCFullYear() + 1);
  return limit.getTime();
}

/**
 * The rules of a new schedule that its schema cannot say: exactly one of `entryId` and `pageId`
 * (`null` counts as absent), `unpublish` only of an entry, and `at` later than `now` and at most one
 * year ahead. Returns the target and `at` as stored (ISO 8601 UTC with milliseconds, whatever offset
 * it was sent with); a 400 listing every problem otherwise.
 */
export function checkScheduleInput(
  input: ScheduleInput,
  now: number,
): { target: ScheduleTarget; at: string } {
  const problems: FieldProblem[] = [];
  const entryId = input.entryId ?? null;
  const pageId = input.pageId ?? null;
  if ((entryId === null) === (pageId === null)) {
    problems.push({ path: 'body', message: 'must have exactly one of entryId and pageId' });
  } else if (input.action === 'unpublish' && pageId !== null) {
    problems.push({
      path: 'body.pageId',
      message: 'unpublish takes an entryId: a page can only be scheduled for publishing',
    });
  }
  const at = Date.parse(input.at);
  if (Number.isNaN(at)) {
    problems.push({ path: 'body.at', message: 'is not a date and time' });
  } else if (at <= now) {
    problems.push({ path: 'body.at', message: `must be in the future (it is now ${isoAt(now)})` });
  } else if (at > latestAt(now)) {
    problems.push({ path: 'body.at', message: `must be within one year (at most ${isoAt(latestAt(now))})` });
  }
  if (problems.length > 0) {
    const message = problems.some((p) => p.path === 'body.at')
      ? 'The schedule is not valid: `at` must be in the future and within one year.'
      : 'The schedule is not valid.';
    throw validationFailed(message, problems);
  }
  const target: ScheduleTarget =
    entryId !== null ? { entryId, pageId: null } : { entryId: null, pageId: pageId as string };
  return { target, at: isoAt(at) };
}

/**
 * Where a page of GET /v1/schedules ended. The list has two parts, each in its own order: pending
 * schedules by `at` (then id), then every other schedule newest first (by id, which is time-sortable).
 * A cursor in the pending part carries (at, id); one in the other part only the id, as every other
 * list's cursor does (src/shared/cursor.ts). Opaque to clients either way.
 */
export type SchedulePosition = { part: 'pending'; at: string; id: string } | { part: 'past'; id: string };

const SEPARATOR = '|';
const STORED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SCHEDULE_ID = /^sch_[0-9A-Z]{26}$/;

/** The cursor that continues after this schedule. */
export function scheduleCursor(row: { id: string; status: ScheduleStatus; at: string }): string {
  return row.status === 'pending' ? encodeCursor(`${row.at}${SEPARATOR}${row.id}`) : encodeCursor(row.id);
}

const badCursor = () =>
  validationFailed('The cursor is not valid.', [
    { path: 'querystring.cursor', message: 'is not a cursor from this list' },
  ]);

/**
 * Reads a cursor made by scheduleCursor, for a list of `status` (undefined: the whole list). A cursor
 * of the pending part is refused on a list of past schedules and the reverse: a 400, never a page of
 * something else.
 */
export function decodeScheduleCursor(
  cursor: string | undefined,
  status: ScheduleStatus | undefined,
): SchedulePosition | undefined {
  if (cursor === undefined) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const split = text.indexOf(SEPARATOR);
  let position: SchedulePosition;
  if (split < 0) {
    position = { part: 'past', id: decodeCursor(cursor) as string };
  } else {
    const at = text.slice(0, split);
    const id = text.slice(split + 1);
    if (!STORED_AT.test(at) || !SCHEDULE_ID.test(id)) throw badCursor();
    position = { part: 'pending', at, id };
  }
  if (status !== undefined && (status === 'pending') !== (position.part === 'pending')) throw badCursor();
  return position;
}
