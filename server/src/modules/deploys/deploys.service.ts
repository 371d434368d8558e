import type { Db } from '../../db/database.js';
import { attemptOutcome } from '../../jobs/attempts.js';
import { decodeCursor } from '../../shared/cursor.js';
import * as repo from './deploys.repository.js';
import type { DeployRow } from './deploys.table.js';

const toDeploy = (row: DeployRow) => ({
  id: row.id,
  hookId: row.hookId,
  hookType: row.hookType,
  reasons: JSON.parse(row.reasons) as string[],
  requestedAt: row.requestedAt,
  ...attemptOutcome(row),
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
