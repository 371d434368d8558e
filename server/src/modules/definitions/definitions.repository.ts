import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { isOneOf } from '../../db/dialect/index.js';
import { byCodeUnits } from '../../shared/canonical.js';
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

export async function upsertDefinitions(db: DbOrTx, rows: DefinitionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('componentDefinitions')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['projectId', 'pageId', 'instanceKey']).doUpdateSet((eb) => ({
        componentId: eb.ref('excluded.componentId'),
        fields: eb.ref('excluded.fields'),
        position: eb.ref('excluded.position'),
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

/**
 * Per page of `pageIds` (one page of GET /v1/pages): its number of definitions and their latest
 * change (one grouped read of those pages' ranges of the primary key).
 */
export async function definitionPageSummaries(
  db: DbOrTx,
  projectId: string,
  pageIds: readonly string[],
): Promise<DefinitionPageSummary[]> {
  if (pageIds.length === 0) return [];
  const rows = await db
    .selectFrom('componentDefinitions')
    .select((eb) => [
      'pageId',
      eb.fn.countAll<number>().as('components'),
      eb.fn.max('updatedAt').as('updatedAt'),
    ])
    .where('projectId', '=', projectId)
    .where(isOneOf(db, 'pageId', pageIds))
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

/** Page order, then instanceKey in code-unit order (the tie-break, the same on both dialects). */
export const byPosition = (
  a: { position: number; instanceKey: string },
  b: { position: number; instanceKey: string },
): number => a.position - b.position || byCodeUnits(a.instanceKey, b.instanceKey);

/** Moves definitions of the page to new positions (one statement, however many move). */
export async function setPositions(
  db: DbOrTx,
  projectId: string,
  pageId: string,
  moves: ReadonlyMap<string, number>,
): Promise<void> {
  if (moves.size === 0) return;
  const cases = sql.join(
    [...moves].map(([instanceKey, position]) => sql`when ${instanceKey} then ${sql.lit(position)}`),
    sql` `,
  );
  await db
    .updateTable('componentDefinitions')
    .set({ position: sql<number>`case ${sql.ref('instanceKey')} ${cases} else ${sql.ref('position')} end` })
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .where('instanceKey', 'in', [...moves.keys()])
    .execute();
}

/** Far after any position: entries without a definition come last on their page. */
const NO_POSITION = 2_147_483_647;

/**
 * The page position of the entry named by `entry` (a table or alias whose row has projectId, pageId
 * and instanceKey), as a correlated subquery: lent to the content module so its page reads come in
 * page order in the same statement, without it naming this module's table.
 */
export const positionOfEntry = (db: DbOrTx, entry: string) =>
  sql<number>`coalesce((${db
    .selectFrom('componentDefinitions as d')
    .select('d.position')
    .where('d.projectId', '=', sql.ref<string>(`${entry}.projectId`))
    .where('d.pageId', '=', sql.ref<string>(`${entry}.pageId`))
    .where('d.instanceKey', '=', sql.ref<string>(`${entry}.instanceKey`))}), ${sql.lit(NO_POSITION)})`;
