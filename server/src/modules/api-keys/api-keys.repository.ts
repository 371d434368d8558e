import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { membershipsView } from '../users/index.js';
import type { ApiKeyRow, KeyAccess, KeyScope } from './api-keys.table.js';

export async function insertKey(db: DbOrTx, row: ApiKeyRow, projectIds: readonly string[]): Promise<void> {
  await db.insertInto('apiKeys').values(row).execute();
  if (projectIds.length > 0) {
    await db
      .insertInto('apiKeyProjects')
      .values(projectIds.map((projectId) => ({ keyId: row.id, projectId })))
      .execute();
  }
}

/** The account's live keys, newest first. */
export const listKeys = (db: DbOrTx, accountId: string): Promise<ApiKeyRow[]> =>
  db
    .selectFrom('apiKeys')
    .selectAll()
    .where('accountId', '=', accountId)
    .where('revokedAt', 'is', null)
    .orderBy('id', 'desc')
    .execute();

/** The listed sites of the given keys, as keyId -> sorted project ids. */
export async function listedProjects(db: DbOrTx, keyIds: readonly string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (keyIds.length === 0) return map;
  const rows = await db
    .selectFrom('apiKeyProjects')
    .select(['keyId', 'projectId'])
    .where('keyId', 'in', keyIds)
    .orderBy('keyId')
    .orderBy('projectId')
    .execute();
  for (const r of rows) map.set(r.keyId, [...(map.get(r.keyId) ?? []), r.projectId]);
  return map;
}

/** Revokes one of the account's live keys; its name (for the activity log), or null when none was revoked. */
export async function revokeKey(
  db: DbOrTx,
  accountId: string,
  id: string,
  now: string,
): Promise<string | null> {
  const row = await db
    .updateTable('apiKeys')
    .set({ revokedAt: now })
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .where('revokedAt', 'is', null)
    .returning('name')
    .executeTakeFirst();
  return row?.name ?? null;
}

export interface ResolvedKeyRow {
  id: string;
  name: string;
  access: KeyAccess;
  scope: KeyScope;
  lastUsedAt: string | null;
  projectId: string | null;
}

/** Keys joined with the sites each covers right now (see resolveByHash); the memberships are users'. */
const coveredSites = (db: DbOrTx) =>
  db.selectFrom('apiKeys as k').leftJoin(membershipsView(db).as('m'), (join) =>
    join
      .onRef('m.accountId', '=', 'k.accountId')
      .on('m.role', '=', 'admin')
      .on((eb) =>
        eb.or([
          eb('k.scope', '=', 'all'),
          eb.exists(
            eb
              .selectFrom('apiKeyProjects as kp')
              .select(sql.lit(1).as('one'))
              .whereRef('kp.keyId', '=', 'k.id')
              .whereRef('kp.projectId', '=', 'm.projectId'),
          ),
        ]),
      ),
  );

/**
 * A live key by hash together with the sites it covers right now, in one round trip: one row per
 * covered site (the creator is still admin there and, for `selected`, the site is listed), or a
 * single row with a null projectId when it covers none. No rows: unknown or revoked.
 */
export const resolveByHash = (db: DbOrTx, keyHash: string): Promise<ResolvedKeyRow[]> =>
  coveredSites(db)
    .select(['k.id', 'k.name', 'k.access', 'k.scope', 'k.lastUsedAt', 'm.projectId'])
    .where('k.keyHash', '=', keyHash)
    .where('k.revokedAt', 'is', null)
    .execute();

/** The sites one of the account's keys covers right now (the activity log records a change in each). */
export async function coveredProjectIds(db: DbOrTx, accountId: string, keyId: string): Promise<string[]> {
  const rows = await coveredSites(db)
    .select('m.projectId')
    .where('k.id', '=', keyId)
    .where('k.accountId', '=', accountId)
    .execute();
  return rows.flatMap((r) => (r.projectId ? [r.projectId] : []));
}

/** Stamps lastUsedAt unless another instance did so within the window (at most one write a minute). */
export async function touchKey(db: DbOrTx, id: string, now: string, staleBefore: string): Promise<void> {
  await db
    .updateTable('apiKeys')
    .set({ lastUsedAt: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', staleBefore)]))
    .execute();
}
