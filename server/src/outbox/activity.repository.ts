import type { DbOrTx, Tx } from '../db/database.js';
import { insertInChunks } from '../db/dialect/bulk.js';
import { type SideWrite, sideWrite } from '../db/dialect/together.js';
import { idAt, idFloor, newId } from '../shared/ids.js';
import type { ActivityActor } from '../shared/principals.js';
import { isoAt } from '../shared/time.js';
import type { ActivityAction, ActivityTargetType } from './activity.actions.js';
import type { ActivityRow, ActivityTable } from './activity.table.js';

/** One change, as the module that made it describes it. `summary` is one human sentence. */
export interface ActivityRecord {
  action: ActivityAction;
  target: { type: ActivityTargetType; id: string };
  summary: string;
  /** The locale the change was made in (contract §14); absent when none, so its statement stays as before. */
  locale?: string;
}

function actorColumns(actor: ActivityActor): Pick<ActivityTable, 'actorType' | 'actorId' | 'actorName'> {
  switch (actor.type) {
    case 'user':
      return { actorType: 'user', actorId: actor.id, actorName: actor.email };
    case 'apiKey':
      return { actorType: 'apiKey', actorId: actor.id, actorName: actor.name };
    case 'site':
      return { actorType: 'site', actorId: null, actorName: null };
    case 'system':
      return { actorType: 'system', actorId: actor.onBehalfOf.id, actorName: actor.onBehalfOf.email };
  }
}

/**
 * Writes the records of one change, inside the transaction that makes it (so a rolled-back change
 * leaves no record, and a committed one always has its record). `projectIds`: an account-level
 * change (an API key) is recorded in every project it covers.
 */
export async function recordActivity(
  trx: Tx,
  projectIds: string | readonly string[],
  actor: ActivityActor,
  records: ActivityRecord | readonly ActivityRecord[],
  /** Back-dates the records (tests, benches, imports); normally the current time. */
  backdatedTo?: number,
): Promise<void> {
  // A save of a thousand objects is a thousand records: kept under the bind-parameter limit.
  await insertInChunks(trx, 'activity', activityRows(projectIds, actor, records, backdatedTo));
}

/** The record of one change, not yet written: for a writer that folds it into its own statement. */
export const activityWrite = (projectId: string, actor: ActivityActor, record: ActivityRecord): SideWrite =>
  sideWrite('activity', activityRows(projectId, actor, record));

function activityRows(
  projectIds: string | readonly string[],
  actor: ActivityActor,
  records: ActivityRecord | readonly ActivityRecord[],
  backdatedTo?: number,
) {
  const now = backdatedTo ?? Date.now();
  const projects = typeof projectIds === 'string' ? [projectIds] : projectIds;
  const list = Array.isArray(records) ? records : [records as ActivityRecord];
  const at = isoAt(now);
  const who = actorColumns(actor);
  return projects.flatMap((projectId) =>
    list.map((r) => ({
      id: backdatedTo === undefined ? newId('act', now) : idAt('act', now),
      projectId,
      at,
      action: r.action,
      ...who,
      targetType: r.target.type,
      targetId: r.target.id,
      summary: r.summary,
      ...(r.locale !== undefined && { locale: r.locale }),
    })),
  );
}

export interface ActivityFilters {
  action?: ActivityAction;
  targetId?: string;
  actorId?: string;
}

/** One page, newest first, one row more than `limit` when more remain (src/shared/cursor.ts). */
export function listActivity(
  db: DbOrTx,
  projectId: string,
  filters: ActivityFilters,
  before: string | undefined,
  limit: number,
): Promise<ActivityRow[]> {
  let query = db.selectFrom('activity').selectAll().where('projectId', '=', projectId);
  // One filter column at a time is what each index serves; several still narrow correctly.
  if (filters.action) query = query.where('action', '=', filters.action);
  if (filters.targetId) query = query.where('targetId', '=', filters.targetId);
  if (filters.actorId) query = query.where('actorId', '=', filters.actorId);
  if (before) query = query.where('id', '<', before);
  return query
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/** Retention: records made before `olderThanMs` go, at most `batch` at a time; returns how many. */
export async function pruneActivity(db: DbOrTx, olderThanMs: number, batch: number): Promise<number> {
  const floor = idFloor('act', olderThanMs);
  const doomed = db.selectFrom('activity').select('id').where('id', '<', floor).orderBy('id').limit(batch);
  const result = await db.deleteFrom('activity').where('id', 'in', doomed).executeTakeFirst();
  return Number(result.numDeletedRows);
}
