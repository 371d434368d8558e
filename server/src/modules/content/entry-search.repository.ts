import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { contains, dialectOf, isOneOf } from '../../db/dialect/index.js';
import { pageSearchText } from '../../shared/page-ids.js';
import { TITLE_HEAD_LENGTH } from './entry-title.js';

/**
 * The entry search (GET /v1/entries, issue 44): entries of one project found by what an editor types,
 * for a reference's picker, and the chosen ones read back by id. Only what a label needs is read: the
 * first characters of the working copy (its title, entry-title.ts), never whole field maps of up to
 * 1 MB; `published` compares the two copies in SQL. Both are computed for the rows listed only.
 */
export interface EntrySearchQuery {
  /** Text an editor typed: found in the page id or the instance key. */
  q?: string;
  pageId?: string;
  componentIds?: readonly string[];
  ids?: readonly string[];
  /** The (pageId, instanceKey) the previous answer ended at (the cursor). */
  after?: readonly [string, string];
  limit: number;
}

/**
 * One range of the index (project_id, page_id, instance_key), read in its order from the cursor on and
 * filtered as it is read, stopping at `limit` rows: no sort, and another project's rows are never read.
 * `pageId` narrows the range to one page; `ids` looks each id up by primary key (then sorts those few).
 * `q` matches the page id through the project's page list (content_pages.search, folded in JavaScript
 * as GET /v1/pages?q= folds it; a hashed semi-join over at most the page cap's rows) or the instance key
 * folded by the database's lower() (ASCII only on SQLite): both are read from the index. A `q` that
 * matches few entries goes through the project's whole range once (the scan bound: 15 ms on SQLite,
 * 57 ms on PostgreSQL, whose index scan visits each row, at 20,000 pages × 3 entries; figures in
 * server/docs/api.md). Rejected: `q` on the component id (not in the index: SQLite then read every
 * row, 200 ms; `componentId` filters exactly instead, as a reference's `componentIds` do), on text
 * inside the field maps (every map of the project), and a trigram index (pg_trgm is an extension
 * SQLite lacks). Exported unexecuted so its plan can be read (EXPLAIN).
 */
export function entrySearchQuery(db: DbOrTx, projectId: string, query: EntrySearchQuery) {
  let select = db
    .selectFrom('contentEntries')
    .select([
      'id',
      'pageId',
      'instanceKey',
      'componentId',
      'publishedAt',
      'updatedAt',
      sql<number | boolean>`(published_fields is not null and published_fields = fields)`.as('published'),
      sql<string>`substr(fields, 1, ${sql.lit(TITLE_HEAD_LENGTH)})`.as('head'),
    ])
    .where(
      // Named by id, each id is one primary-key lookup. SQLite's planner, which has no statistics,
      // would rather read the project's whole index range in order (97 ms at 60,000 entries, 0.1 ms
      // by key): its unary `+` keeps the project's index out of its choice. PostgreSQL picks the key.
      query.ids && dialectOf(db) === 'sqlite'
        ? sql<boolean>`+project_id = ${projectId}`
        : sql<boolean>`project_id = ${projectId}`,
    )
    .orderBy('pageId')
    .orderBy('instanceKey')
    .limit(query.limit);
  if (query.pageId !== undefined) select = select.where('pageId', '=', query.pageId);
  if (query.componentIds && query.componentIds.length > 0)
    select = select.where(isOneOf(db, 'componentId', query.componentIds));
  if (query.ids) select = select.where(isOneOf(db, 'id', query.ids));
  if (query.after) {
    const [pageId, instanceKey] = query.after;
    select = select.where(sql<boolean>`(page_id, instance_key) > (${pageId}, ${instanceKey})`);
  }
  const q = query.q ? pageSearchText(query.q) : '';
  if (q !== '') {
    const pages = db
      .selectFrom('contentPages')
      .select('pageId')
      .where('projectId', '=', projectId)
      .where(contains(db, 'search', q));
    select = select.where((eb) =>
      eb.or([eb('pageId', 'in', pages), foldedContains(db, sql`instance_key`, q)]),
    );
  }
  return select;
}

/** `needle` (already lower case) occurs in the column folded by the database's lower(). */
function foldedContains(db: DbOrTx, column: ReturnType<typeof sql>, needle: string) {
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`strpos(lower(${column}), ${needle}) > 0`
    : sql<boolean>`instr(lower(${column}), ${needle}) > 0`;
}

export async function searchEntries(db: DbOrTx, projectId: string, query: EntrySearchQuery) {
  const rows = await entrySearchQuery(db, projectId, query).execute();
  return rows.map((r) => ({ ...r, published: Boolean(r.published) }));
}
