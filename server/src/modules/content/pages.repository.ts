import type { DbOrTx, Tx } from '../../db/database.js';
import { contains } from '../../db/dialect/index.js';
import { pageSearchText, pageSortKey } from '../../shared/page-ids.js';

/**
 * The project's pages, one row each (content_pages, migration 0019): what GET /v1/pages pages through
 * and searches. A page is added by the sync that gives it its first definition and entry, and removed
 * with its last one.
 */

/** Adds the page to its project's list (nothing when it is there already). */
export async function registerPage(trx: Tx, projectId: string, pageId: string): Promise<void> {
  await trx
    .insertInto('contentPages')
    .values({ projectId, pageId, sortKey: pageSortKey(pageId), search: pageSearchText(pageId) })
    .onConflict((oc) => oc.columns(['projectId', 'sortKey']).doNothing())
    .execute();
}

/**
 * The project's pages, for the page cap (CMS_MAX_PAGES_PER_PROJECT) a sync of a new page checks under
 * the project's lock: a count of one key range of at most the cap's rows. Counting distinct page ids of
 * the definitions instead read every definition (200,000 at 20,000 pages x 10): 340 ms on PostgreSQL.
 */
export async function countPages(db: DbOrTx, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('contentPages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('projectId', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function removePage(trx: Tx, projectId: string, pageId: string): Promise<void> {
  await trx
    .deleteFrom('contentPages')
    .where('projectId', '=', projectId)
    .where('sortKey', '=', pageSortKey(pageId))
    .execute();
}

export interface PageIdsQuery {
  /** Only ids containing this text, compared in lower case. */
  q?: string;
  /** Only ids after this one, in code-unit order (the cursor). */
  after?: string;
  limit: number;
}

/**
 * Page ids of the project in code-unit order: one range of the primary key (project_id, sort_key)
 * from the cursor on, filtered by `q` as it is read, stopping at `limit`. A search that matches few
 * pages reads at most every page row of the project (the page cap bounds it), never an entry. The
 * query is exported unexecuted so the bench can EXPLAIN it (bench/pages).
 */
export function pageIdsQuery(db: DbOrTx, projectId: string, query: PageIdsQuery) {
  let select = db
    .selectFrom('contentPages')
    .select('pageId')
    .where('projectId', '=', projectId)
    .orderBy('sortKey')
    .limit(query.limit);
  if (query.after !== undefined) select = select.where('sortKey', '>', pageSortKey(query.after));
  if (query.q) select = select.where(contains(db, 'search', pageSearchText(query.q)));
  return select;
}

export async function pageIdsOf(db: DbOrTx, projectId: string, query: PageIdsQuery): Promise<string[]> {
  const rows = await pageIdsQuery(db, projectId, query).execute();
  return rows.map((r) => r.pageId);
}
