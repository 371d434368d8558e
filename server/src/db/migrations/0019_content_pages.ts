import { type Kysely, sql } from 'kysely';
import { pageSearchText, pageSortKey } from '../../shared/page-ids.js';
import { dialectOf } from '../dialect/index.js';

/**
 * One row per page of a project (issue 34: up to 20,000 pages, GET /v1/pages paged and searched by
 * `?q=`). The list used to group every entry and definition of the project (two scans of 200,000
 * index entries at 20,000 pages × 10 entries); a page of the list is now a range of this table's
 * primary key, and `?q=` a filter over at most the project's pages, never its entries.
 *
 * `sort_key` is the page id's UTF-16 code units, big-endian: bytes both databases compare alike, so
 * the list keeps its code-unit order in SQL whatever PostgreSQL's collation. `search` is the id in
 * lower case, folded in JavaScript (SQLite's lower() folds ASCII only). Rejected: a trigram index
 * (pg_trgm, an extension not every PostgreSQL offers and SQLite lacks), since the page cap bounds
 * the filter's scan. SQLite keeps the rows in the key's order (WITHOUT ROWID), so the range is read
 * in one pass with no lookup per row.
 *
 * Existing pages (any page id with a definition or an entry) are copied in. A page first synced by an
 * instance still running the previous build after this migration (a rolling upgrade) gets no row: it
 * is missing from GET /v1/pages until a sync writes to it again (deleting it works as before).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  let table = db.schema
    .createTable('content_pages')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('sort_key', postgres ? sql`bytea` : 'blob', (c) => c.notNull())
    .addColumn('search', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_pages_pk', ['project_id', 'sort_key']);
  if (!postgres) table = table.modifyEnd(sql`without rowid`);
  await table.execute();

  const { rows } = await sql<{ projectId: string; pageId: string }>`
    select project_id, page_id from component_definitions
    union
    select project_id, page_id from content_entries`.execute(db);
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('content_pages')
      .values(
        rows.slice(i, i + 1000).map((r) => ({
          project_id: r.projectId,
          page_id: r.pageId,
          sort_key: pageSortKey(r.pageId),
          search: pageSearchText(r.pageId),
        })),
      )
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('content_pages').execute();
}
