import type { DbOrTx } from '../../db/database.js';
import { dialectOf } from '../../db/dialect/index.js';
import { membershipsView, type Role } from '../users/index.js';
import type { DefinitionSyncMode, DeployHookRow, ProjectRow } from './projects.table.js';

export async function insertProject(
  db: DbOrTx,
  p: { id: string; name: string; apiKey: string; now: string },
): Promise<void> {
  await db
    .insertInto('projects')
    .values({
      id: p.id,
      name: p.name,
      apiKey: p.apiKey,
      domains: '[]',
      cdnUrl: null,
      previewUrl: null,
      bakeEnabled: 1,
      createdAt: p.now,
      updatedAt: p.now,
    })
    .execute();
}

export const findProject = (db: DbOrTx, id: string): Promise<ProjectRow | undefined> =>
  db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();

/** The columns other modules read of a project (through the site cache), by publishable key or id. */
export const siteBy = (db: DbOrTx, column: 'apiKey' | 'id', value: string) =>
  db
    .selectFrom('projects')
    .select(['id', 'domains', 'bakeEnabled', 'cdnUrl', 'locales'])
    .where(column, '=', value)
    .executeTakeFirst();

/** The project's stored `locales`, locked until the transaction ends on PostgreSQL (a change of them is checked against content). */
export async function lockedLocalesOf(
  trx: DbOrTx,
  id: string,
): Promise<{ locales: string | null } | undefined> {
  const query = trx.selectFrom('projects').select('locales').where('id', '=', id);
  return (dialectOf(trx) === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export async function definitionSyncOf(db: DbOrTx, id: string): Promise<DefinitionSyncMode | null> {
  const row = await db
    .selectFrom('projects')
    .select('definitionSync')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.definitionSync ?? null;
}

export const projectsOfAccount = (db: DbOrTx, accountId: string): Promise<(ProjectRow & { role: Role })[]> =>
  db
    .selectFrom(membershipsView(db).as('memberships'))
    .innerJoin('projects', 'projects.id', 'memberships.projectId')
    .selectAll('projects')
    .select('memberships.role')
    .where('memberships.accountId', '=', accountId)
    .orderBy('projects.id')
    .execute();

export async function updateProject(
  db: DbOrTx,
  id: string,
  set: Partial<
    Pick<
      ProjectRow,
      'name' | 'domains' | 'cdnUrl' | 'previewUrl' | 'bakeEnabled' | 'apiKey' | 'definitionSync' | 'locales'
    >
  > & {
    updatedAt: string;
  },
): Promise<void> {
  await db.updateTable('projects').set(set).where('id', '=', id).execute();
}

export const deployHooksOf = (db: DbOrTx, projectIds: string[]): Promise<DeployHookRow[]> =>
  projectIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('deployHooks')
        .selectAll()
        .where('projectId', 'in', projectIds)
        .orderBy('projectId')
        .orderBy('position')
        .execute();

export async function replaceDeployHooks(
  db: DbOrTx,
  projectId: string,
  hooks: DeployHookRow[],
): Promise<void> {
  await db.deleteFrom('deployHooks').where('projectId', '=', projectId).execute();
  if (hooks.length > 0) await db.insertInto('deployHooks').values(hooks).execute();
}

export const findDeployHook = (db: DbOrTx, projectId: string, hookId: string) =>
  db
    .selectFrom('deployHooks')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('id', '=', hookId)
    .executeTakeFirst();

/** Deploy-hook secrets not sealed with key `keyId` (in clear, or under an older key). */
export const deployHookSecretsNotSealedWith = (db: DbOrTx, keyId: string) =>
  db
    .selectFrom('deployHooks')
    .select(['projectId', 'id', 'secret'])
    .where('secret', 'is not', null)
    .where('secret', 'not like', `enc1:${keyId}:%`)
    .execute() as Promise<{ projectId: string; id: string; secret: string }[]>;

/** Compare-and-set: writes `to` only while the hook still holds `from`. */
export async function replaceDeployHookSecret(
  db: DbOrTx,
  key: { projectId: string; id: string },
  from: string,
  to: string,
): Promise<boolean> {
  const result = await db
    .updateTable('deployHooks')
    .set({ secret: to })
    .where('projectId', '=', key.projectId)
    .where('id', '=', key.id)
    .where('secret', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
