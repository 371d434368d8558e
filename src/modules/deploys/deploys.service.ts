import type { Db } from '../../db/database.js';
import { decodeCursor } from '../../http/pagination.js';
import * as repo from './deploys.repository.js';
import type { DeployRow } from './deploys.table.js';

const toDeploy = (row: DeployRow) => ({
  id: row.id,
  hookId: row.hookId,
  hookType: row.hookType,
  reasons: JSON.parse(row.reasons) as string[],
  status: row.status,
  responseCode: row.responseCode,
  attemptCount: row.attemptCount,
  lastAttemptAt: row.lastAttemptAt,
  nextAttemptAt: row.nextAttemptAt,
  durationMs: row.durationMs,
  error: row.error,
  responseBody: row.responseBody,
  requestedAt: row.requestedAt,
  createdAt: row.createdAt,
});

export function createDeploysService(db: Db) {
  return {
    /** The project's deploy hook calls, newest first (one page + 1 row, for pageEnvelope). */
    async list(projectId: string, query: { limit: number; cursor?: string }) {
      const rows = await repo.listDeploys(db, projectId, decodeCursor(query.cursor), query.limit);
      return rows.map(toDeploy);
    },
  };
}

export type DeploysService = ReturnType<typeof createDeploysService>;
