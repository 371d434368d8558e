import type { Db } from '../../db/database.js';
import { type ActivityFilters, type ActivityRow, listActivity } from '../../outbox/index.js';
import { decodeCursor } from '../../shared/cursor.js';
import type { ActivityActor } from '../../shared/principals.js';

function actorOf(row: ActivityRow): ActivityActor {
  switch (row.actorType) {
    case 'user':
      return { type: 'user', id: row.actorId ?? '', email: row.actorName ?? '' };
    case 'apiKey':
      return { type: 'apiKey', id: row.actorId ?? '', name: row.actorName ?? '' };
    case 'site':
      return { type: 'site' };
    case 'system':
      return { type: 'system', onBehalfOf: { id: row.actorId ?? '', email: row.actorName ?? '' } };
  }
}

export function toActivity(row: ActivityRow) {
  return {
    id: row.id,
    at: row.at,
    actor: actorOf(row),
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    summary: row.summary,
    ...(row.locale !== null && { locale: row.locale }),
  };
}

export function createActivityService(db: Db) {
  return {
    /** One page of the project's log, newest first, one row more than `limit` when more remain. */
    async list(projectId: string, query: ActivityFilters & { limit: number; cursor?: string }) {
      const rows = await listActivity(db, projectId, query, decodeCursor(query.cursor), query.limit);
      return rows.map(toActivity);
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
