import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { DefinitionRow } from './definitions.table.js';

export const definitionsOfPage = (db: DbOrTx, projectId: string, pageId: string): Promise<DefinitionRow[]> =>
  db
    .selectFrom('componentDefinitions')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .execute();

/**
 * The fields an entry's component definition declares, as a subquery correlated on `entry` (the
 * alias of the outer row, which has projectId, pageId and instanceKey): content folds it into the
 * first statement of a write, so reading the definition costs no round trip.
 */
export const declaredFieldsOf = (db: DbOrTx, entry: string) =>
  db
    .selectFrom('componentDefinitions as d')
    .select('d.fields')
    .where('d.projectId', '=', sql.ref<string>(`${entry}.projectId`))
    .where('d.pageId', '=', sql.ref<string>(`${entry}.pageId`))
    .where('d.instanceKey', '=', sql.ref<string>(`${entry}.instanceKey`));

/** Whether the page has a definition: one probe of the primary key (project_id, page_id, …). */
export async function pageHasDefinitions(db: DbOrTx, projectId: string, pageId: string): Promise<boolean> {
  const row = await db
    .selectFrom('componentDefinitions')
    .select('pageId')
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Distinct pages with definitions; the primary key (project_id, page_id, …) serves it. */
export async function countPages(db: DbOrTx, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('componentDefinitions')
    .select((eb) => eb.fn.count<number>('pageId').distinct().as('n'))
    .where('projectId', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function upsertDefinitions(db: DbOrTx, rows: DefinitionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('componentDefinitions')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['projectId', 'pageId', 'instanceKey']).doUpdateSet((eb) => ({
        componentId: eb.ref('excluded.componentId'),
        fields: eb.ref('excluded.fields'),
        updatedAt: eb.ref('excluded.updatedAt'),
      })),
    )
    .execute();
}

export interface DefinitionPageSummary {
  pageId: string;
  components: number;
  updatedAt: string;
}

/** Per page of the project: its number of definitions and their latest change (one grouped scan of the primary key). */
export async function definitionPageSummaries(
  db: DbOrTx,
  projectId: string,
): Promise<DefinitionPageSummary[]> {
  const rows = await db
    .selectFrom('componentDefinitions')
    .select((eb) => [
      'pageId',
      eb.fn.countAll<number>().as('components'),
      eb.fn.max('updatedAt').as('updatedAt'),
    ])
    .where('projectId', '=', projectId)
    .groupBy('pageId')
    .execute();
  return rows.map((r) => ({ pageId: r.pageId, components: Number(r.components), updatedAt: r.updatedAt }));
}

/** Removes the definitions of a page, or of one instance on it; returns how many went. */
export async function deleteDefinitions(
  db: DbOrTx,
  projectId: string,
  pageId: string,
  instanceKey?: string,
): Promise<number> {
  let query = db
    .deleteFrom('componentDefinitions')
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId);
  if (instanceKey !== undefined) query = query.where('instanceKey', '=', instanceKey);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
