import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/database.js';
import { dialectOf, isOneOf } from '../../db/dialect/index.js';
import { type SideWrite, sideWrite } from '../../db/dialect/together.js';
import { checkedRole, type SessionCheck } from '../auth/session-check.js';
import type { EntryRow, HistoryRow } from './content.table.js';

export const entriesOfPage = (db: DbOrTx, projectId: string, pageId: string): Promise<EntryRow[]> =>
  db
    .selectFrom('contentEntries')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .execute();

/** An entry with its definition's declared fields (JSON, null without one), for rules and `problems`. */
export type EntryWithDeclarations = EntryRow & { declaredFields: string | null };

/**
 * The entries of one page with their declarations, in one query (editor reads carry `problems`,
 * contract §13). `lock`: row-locked until the transaction ends (PostgreSQL), for a bulk publish that
 * checks the rules and then publishes exactly what it checked.
 */
export const entriesOfPageWithDeclarations = (
  db: DbOrTx,
  projectId: string,
  pageId: string,
  lock = false,
): Promise<EntryWithDeclarations[]> => {
  const query = db
    .selectFrom('contentEntries as e')
    .selectAll('e')
    .select(() => [declaredFieldsOf(db, 'e').as('declaredFields')])
    .where('e.projectId', '=', projectId)
    .where('e.pageId', '=', pageId)
    // One order for every locker of a page's rows, so two bulk publishes cannot deadlock.
    .orderBy('e.instanceKey');
  return (lock && dialectOf(db) === 'postgres' ? query.forUpdate('e') : query).execute() as Promise<
    EntryWithDeclarations[]
  >;
};

/** Which of `pageIds` are pages of the project (they have an entry): one query for every `link` checked. */
export async function existingPages(db: DbOrTx, projectId: string, pageIds: string[]): Promise<Set<string>> {
  if (pageIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('contentEntries')
    .select('pageId')
    .distinct()
    .where('projectId', '=', projectId)
    .where('pageId', 'in', pageIds)
    .execute();
  return new Set(rows.map((r) => r.pageId));
}

export type PublishedRow = Pick<EntryRow, 'id' | 'instanceKey' | 'componentId' | 'publishedAt'> & {
  publishedFields: string;
  publishedVersion: number;
};

/** The live entries of one page: one indexed range scan, no query per entry. */
export const publishedEntriesOfPage = (db: DbOrTx, projectId: string, pageId: string) =>
  db
    .selectFrom('contentEntries')
    .select(['id', 'instanceKey', 'componentId', 'publishedFields', 'publishedAt', 'publishedVersion'])
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .where('publishedFields', 'is not', null)
    .execute() as Promise<PublishedRow[]>;

/** Every live entry of the project, for the snapshot. */
export const publishedEntriesOfProject = (db: DbOrTx, projectId: string) =>
  db
    .selectFrom('contentEntries')
    .select(['pageId', 'instanceKey', 'componentId', 'publishedFields'])
    .where('projectId', '=', projectId)
    .where('publishedFields', 'is not', null)
    .execute() as Promise<
    { pageId: string; instanceKey: string; componentId: string; publishedFields: string }[]
  >;

/** Whether the page has an entry: one probe of the (project_id, page_id, instance_key) index. */
export async function pageHasEntries(db: DbOrTx, projectId: string, pageId: string): Promise<boolean> {
  const row = await db
    .selectFrom('contentEntries')
    .select('id')
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export const findEntry = (db: DbOrTx, projectId: string, id: string): Promise<EntryRow | undefined> =>
  db
    .selectFrom('contentEntries')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * The entry, row-locked until the transaction ends (PostgreSQL `FOR UPDATE`, one round trip for the
 * lock and the read; after waiting on another writer's lock it returns the row as that writer
 * committed it). SQLite has no row locks: its write transactions run one at a time.
 */
export const findEntryForUpdate = (trx: Tx, projectId: string, id: string): Promise<EntryRow | undefined> => {
  const query = trx
    .selectFrom('contentEntries')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('id', '=', id);
  return (dialectOf(trx) === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
};

/** An entry about to be edited, with what the edit needs read in the same statement. */
export type EntryForWrite = EntryRow & {
  /** The fields of the entry's definition (JSON), null without one: for the type checks. */
  declaredFields: string | null;
  /** With a session check: the session's current role in the project (null: refused). */
  checkedRole?: string | null;
};

/**
 * findEntryForUpdate, plus the definition's declared fields and, when the auth hook let the
 * session through on remembered facts, the session's current role (src/modules/auth/session-check.ts):
 * one round trip where there were three (session, role, definition), the first statement of the write.
 */
export const findEntryForWrite = (
  trx: Tx,
  projectId: string,
  id: string,
  check: SessionCheck | undefined,
  now: string,
): Promise<EntryForWrite | undefined> => {
  const query = trx
    .selectFrom('contentEntries as e')
    .selectAll('e')
    .select(() => [
      declaredFieldsOf(trx, 'e').as('declaredFields'),
      ...(check ? [checkedRole(trx, check, now)] : []),
    ])
    .where('e.projectId', '=', projectId)
    .where('e.id', '=', id);
  return (dialectOf(trx) === 'postgres' ? query.forUpdate('e') : query).executeTakeFirst() as Promise<
    EntryForWrite | undefined
  >;
};

/** The fields the entry's component definition declares (a subquery correlated on `entry`). */
const declaredFieldsOf = (db: DbOrTx, entry: 'e' | 'contentEntries') =>
  db
    .selectFrom('componentDefinitions as d')
    .select('d.fields')
    .where('d.projectId', '=', sql.ref<string>(`${entry}.projectId`))
    .where('d.pageId', '=', sql.ref<string>(`${entry}.pageId`))
    .where('d.instanceKey', '=', sql.ref<string>(`${entry}.instanceKey`));

/**
 * updateEntryQuery for a write that read the entry beforehand without its lock (content.service.ts,
 * the optimistic PATCH): it matches only while the entry of this project is at `read.version` and its
 * definition still declares `read.declaredFields`.
 */
export const updateEntryIfUnchanged = (
  db: DbOrTx,
  projectId: string,
  read: Pick<EntryForWrite, 'id' | 'version' | 'declaredFields'>,
  set: Parameters<typeof updateEntryQuery>[2],
  published?: 'set' | 'clear',
) =>
  updateEntryQuery(db, read.id, set, published)
    .where('projectId', '=', projectId)
    .where('version', '=', read.version)
    .where((eb) => eb(declaredFieldsOf(db, 'contentEntries'), 'is not distinct from', read.declaredFields));

/** Inserts stubs where no entry exists yet; returns the instance keys actually created. */
export async function insertStubs(trx: Tx, rows: EntryRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await trx
    .insertInto('contentEntries')
    .values(rows)
    .onConflict((oc) => oc.columns(['projectId', 'pageId', 'instanceKey']).doNothing())
    .returning('instanceKey')
    .execute();
  return inserted.map((r) => r.instanceKey);
}

/** Follows a definition whose component changed; returns how many live entries changed with it. */
export async function setComponentId(
  trx: Tx,
  key: { projectId: string; pageId: string; instanceKey: string },
  componentId: string,
  now: string,
): Promise<{ live: boolean }> {
  const rows = await trx
    .updateTable('contentEntries')
    // A live entry's visitors see the new component too, so its published version moves with it.
    .set((eb) => ({
      componentId,
      updatedAt: now,
      version: eb('version', '+', 1),
      publishedVersion: eb
        .case()
        .when('publishedFields', 'is', null)
        .then(null)
        .else(eb('version', '+', 1))
        .end(),
    }))
    .where('projectId', '=', key.projectId)
    .where('pageId', '=', key.pageId)
    .where('instanceKey', '=', key.instanceKey)
    .where('componentId', '<>', componentId)
    .returning('publishedFields')
    .execute();
  return { live: rows.some((r) => r.publishedFields !== null) };
}

/**
 * Changes an entry and counts the change in its `version`, in the same statement (no extra round
 * trip on publish). `published`: "set" makes this version the published one, "clear" takes it down.
 */
export async function updateEntry(
  trx: Tx,
  id: string,
  set: Partial<Pick<EntryRow, 'fields' | 'publishedFields' | 'publishedAt' | 'updatedAt'>>,
  published?: 'set' | 'clear',
): Promise<EntryRow> {
  return updateEntryQuery(trx, id, set, published).executeTakeFirstOrThrow();
}

/** updateEntry's statement, not yet run (for src/db/dialect/together.ts). */
export const updateEntryQuery = (
  trx: DbOrTx,
  id: string,
  set: Partial<Pick<EntryRow, 'fields' | 'publishedFields' | 'publishedAt' | 'updatedAt'>>,
  published?: 'set' | 'clear',
) =>
  trx
    .updateTable('contentEntries')
    .set((eb) => ({
      ...set,
      version: eb('version', '+', 1),
      ...(published === 'set' && { publishedVersion: eb('version', '+', 1) }),
      ...(published === 'clear' && { publishedVersion: null }),
    }))
    .where('id', '=', id)
    .returningAll();

/**
 * Publishes every entry of the page whose working copy differs from its published copy, in one
 * statement: the returned rows are exactly what was published, with no window for a concurrent edit
 * between reading and publishing.
 */
export const publishDraftsOfPage = (trx: Tx, projectId: string, pageId: string, now: string) =>
  trx
    .updateTable('contentEntries')
    .set((eb) => ({
      publishedFields: sql<string>`fields`,
      publishedAt: now,
      updatedAt: now,
      version: eb('version', '+', 1),
      publishedVersion: eb('version', '+', 1),
    }))
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .where((eb) => eb.or([eb('publishedFields', 'is', null), eb('publishedFields', '<>', eb.ref('fields'))]))
    .returningAll()
    .execute();

/** History rows (not none), not yet written: for the write they record (db/dialect/together.ts). */
export const historyWrite = (rows: HistoryRow[]): SideWrite => sideWrite('entryHistory', rows);

/** Newest first, by time-sortable id; `before` is the cursor (last id of the previous page). */
export function historyOf(
  db: DbOrTx,
  projectId: string,
  entryId: string,
  before: string | undefined,
  limit: number,
): Promise<HistoryRow[]> {
  let query = db
    .selectFrom('entryHistory')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('entryId', '=', entryId);
  if (before) query = query.where('id', '<', before);
  return query
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

export const findHistory = (
  db: DbOrTx,
  projectId: string,
  entryId: string,
  id: string,
): Promise<HistoryRow | undefined> =>
  db
    .selectFrom('entryHistory')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('entryId', '=', entryId)
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * Removes entries (one, or every entry of a page) and returns what they were at that moment. One
 * DELETE … RETURNING: on PostgreSQL it waits for an edit holding the row and then sees its commit,
 * so whether an entry was live is never read stale. Their history goes with them (the foreign key
 * of entry_history cascades, on both dialects).
 */
export function deleteEntries(
  trx: Tx,
  projectId: string,
  target: { id: string } | { pageId: string },
): Promise<EntryRow[]> {
  let query = trx.deleteFrom('contentEntries').where('projectId', '=', projectId);
  query = 'id' in target ? query.where('id', '=', target.id) : query.where('pageId', '=', target.pageId);
  return query.returningAll().execute();
}

export interface EntryPageSummary {
  pageId: string;
  published: number;
  drafts: number;
  updatedAt: string;
}

/**
 * Per page of `pageIds` (one page of GET /v1/pages): how many entries are live, how many are drafts
 * (working copy differs from the published one, or never published) and the latest change. One
 * grouped read of those pages' ranges of the (project_id, page_id, instance_key) index.
 */
export async function entryPageSummaries(
  db: DbOrTx,
  projectId: string,
  pageIds: readonly string[],
): Promise<EntryPageSummary[]> {
  if (pageIds.length === 0) return [];
  const rows = await db
    .selectFrom('contentEntries')
    .select((eb) => [
      'pageId',
      eb.fn
        .sum<number>(eb.case().when('publishedFields', 'is not', null).then(1).else(0).end())
        .as('published'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.or([eb('publishedFields', 'is', null), eb('publishedFields', '<>', eb.ref('fields'))]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('drafts'),
      eb.fn.max('updatedAt').as('updatedAt'),
    ])
    .where('projectId', '=', projectId)
    .where(isOneOf(db, 'pageId', pageIds))
    .groupBy('pageId')
    .execute();
  // PostgreSQL's sum() is a bigint, which pg returns as a string.
  return rows.map((r) => ({
    pageId: r.pageId,
    published: Number(r.published),
    drafts: Number(r.drafts),
    updatedAt: r.updatedAt,
  }));
}
