import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/database.js';
import { dialectOf, isOneOf } from '../../db/dialect/index.js';
import { type SideWrite, sideWrite } from '../../db/dialect/together.js';
import { checkedRole, type SessionCheck } from '../auth/index.js';
import { declaredFieldsOf, positionOfEntry } from '../definitions/index.js';
import type { EntryRow, HistoryRow } from './content.table.js';

/** Where the entry's component is on its page (its definition's position; issue 37). */
export type Positioned = { position: number };

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
): Promise<(EntryWithDeclarations & Positioned)[]> => {
  const query = db
    .selectFrom('contentEntries as e')
    .selectAll('e')
    .select(() => [declaredFieldsOf(db, 'e').as('declaredFields'), positionOfEntry(db, 'e').as('position')])
    .where('e.projectId', '=', projectId)
    .where('e.pageId', '=', pageId)
    // One order for every locker of a page's rows, so two bulk publishes cannot deadlock.
    .orderBy('e.instanceKey');
  return (lock && dialectOf(db) === 'postgres' ? query.forUpdate('e') : query).execute() as Promise<
    (EntryWithDeclarations & Positioned)[]
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

export type PublishedRow = Pick<EntryRow, 'id' | 'instanceKey' | 'componentId' | 'publishedAt'> &
  Positioned & {
    publishedFields: string;
    publishedVersion: number;
  };

/** The live entries of one page: one indexed range scan, no query per entry. */
export const publishedEntriesOfPage = (db: DbOrTx, projectId: string, pageId: string) =>
  db
    .selectFrom('contentEntries')
    .select(['id', 'instanceKey', 'componentId', 'publishedFields', 'publishedAt', 'publishedVersion'])
    .select(positionOfEntry(db, 'contentEntries').as('position'))
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .where('publishedFields', 'is not', null)
    .execute() as Promise<PublishedRow[]>;

/** Every live entry of the project, for the snapshot. */
export const publishedEntriesOfProject = (db: DbOrTx, projectId: string) =>
  db
    .selectFrom('contentEntries')
    .select(['id', 'pageId', 'instanceKey', 'componentId', 'publishedFields'])
    .where('projectId', '=', projectId)
    .where('publishedFields', 'is not', null)
    .execute() as Promise<
    { id: string; pageId: string; instanceKey: string; componentId: string; publishedFields: string }[]
  >;

/**
 * Every entry of the project, live in some locale or not, with what a visitor's view of it needs (the
 * snapshots of a project with locales, locale-reads.ts): its default locale's published copy and
 * declarations, never the working copy.
 */
export const entriesOfProjectForSnapshot = (db: DbOrTx, projectId: string) =>
  db
    .selectFrom('contentEntries as e')
    .select([
      'e.id',
      'e.pageId',
      'e.instanceKey',
      'e.componentId',
      'e.publishedFields',
      'e.publishedAt',
      'e.publishedVersion',
    ])
    .select(() => [declaredFieldsOf(db, 'e').as('declaredFields')])
    .where('e.projectId', '=', projectId)
    .execute() as Promise<
    (Pick<
      EntryRow,
      'id' | 'pageId' | 'instanceKey' | 'componentId' | 'publishedFields' | 'publishedAt' | 'publishedVersion'
    > & { declaredFields: string | null })[]
  >;

/** Ids per `in (…)` list: well under both dialects' bound parameters. */
const ID_CHUNK = 500;

/**
 * The live entries of pages of one project with their declarations (resolution walks their
 * references): one query per 500 pages, so the dependents of a published entry reload together.
 */
export async function publishedEntriesOfPagesWithDeclarations(
  db: DbOrTx,
  projectId: string,
  pageIds: readonly string[],
): Promise<(PublishedRow & { pageId: string; declaredFields: string | null })[]> {
  const out: (PublishedRow & { pageId: string; declaredFields: string | null })[] = [];
  for (let i = 0; i < pageIds.length; i += ID_CHUNK) {
    const chunk = pageIds.slice(i, i + ID_CHUNK);
    const rows = await db
      .selectFrom('contentEntries as e')
      .select([
        'e.id',
        'e.pageId',
        'e.instanceKey',
        'e.componentId',
        'e.publishedFields',
        'e.publishedAt',
        'e.publishedVersion',
      ])
      .select(() => [declaredFieldsOf(db, 'e').as('declaredFields'), positionOfEntry(db, 'e').as('position')])
      .where('e.projectId', '=', projectId)
      .$call((q) =>
        chunk.length === 1 ? q.where('e.pageId', '=', chunk[0] as string) : q.where('e.pageId', 'in', chunk),
      )
      .where('e.publishedFields', 'is not', null)
      .execute();
    out.push(...(rows as (PublishedRow & { pageId: string; declaredFields: string | null })[]));
  }
  return out;
}

/** The entries of `ids` in the project, with their declarations (reference targets): one query per 500 ids. */
export async function entriesByIds(
  db: DbOrTx,
  projectId: string,
  ids: readonly string[],
): Promise<EntryWithDeclarations[]> {
  const out: EntryWithDeclarations[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const rows = await db
      .selectFrom('contentEntries as e')
      .selectAll('e')
      .select(() => [declaredFieldsOf(db, 'e').as('declaredFields')])
      .where('e.projectId', '=', projectId)
      .where('e.id', 'in', ids.slice(i, i + ID_CHUNK))
      .execute();
    out.push(...(rows as EntryWithDeclarations[]));
  }
  return out;
}

/** The component of each of `ids` that is an entry of the project (the check of written references). */
export async function componentsOfEntries(
  db: DbOrTx,
  projectId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const rows = await db
      .selectFrom('contentEntries')
      .select(['id', 'componentId'])
      .where('projectId', '=', projectId)
      .where('id', 'in', ids.slice(i, i + ID_CHUNK))
      .execute();
    for (const r of rows) out.set(r.id, r.componentId);
  }
  return out;
}

/**
 * The entries of the project whose working or published copy holds the text of `ids` (candidates:
 * the caller confirms each through its declarations, field-references.ts). Entry ids are 30
 * characters that nothing else is made of, so a substring is a near-exact filter; one scan of the
 * project's rows, no index to keep in step with every write (rejected: a references table written
 * by each save and publish, for a read that only deletions and one editor route make).
 */
export function entriesMentioning(
  db: DbOrTx,
  projectId: string,
  ids: readonly string[],
  copy: 'any' | 'published',
): Promise<EntryWithDeclarations[]> {
  return db
    .selectFrom('contentEntries as e')
    .selectAll('e')
    .select(() => [declaredFieldsOf(db, 'e').as('declaredFields')])
    .where('e.projectId', '=', projectId)
    .where((eb) =>
      eb.or(
        ids.flatMap((id) => [
          eb('e.publishedFields', 'like', `%"${id}"%`),
          ...(copy === 'any' ? [eb('e.fields', 'like', `%"${id}"%`)] : []),
        ]),
      ),
    )
    .execute() as Promise<EntryWithDeclarations[]>;
}

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

/** The entry with its definition's declarations (one query), for an editor read that carries `problems`. */
export const findEntryWithDeclarations = (
  db: DbOrTx,
  projectId: string,
  id: string,
): Promise<EntryWithDeclarations | undefined> =>
  db
    .selectFrom('contentEntries as e')
    .selectAll('e')
    .select(() => [declaredFieldsOf(db, 'e').as('declaredFields')])
    .where('e.projectId', '=', projectId)
    .where('e.id', '=', id)
    .executeTakeFirst() as Promise<EntryWithDeclarations | undefined>;

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

/**
 * Which of `ids` an entry of ANY project holds. Deliberately not filtered by project: entry ids are
 * the table's primary key, unique across projects, so a sync that asks for an id (an import keeping
 * its ids) must not take one another project holds. The caller answers the same whether the holder
 * is its own project or another, so nothing of another project is disclosed.
 */
export async function takenEntryIds(trx: Tx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await trx.selectFrom('contentEntries').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The ids of the project's entries at `instanceKeys` of a page. */
export async function entryIdsOf(
  db: DbOrTx,
  projectId: string,
  pageId: string,
  instanceKeys: string[],
): Promise<Map<string, string>> {
  if (instanceKeys.length === 0) return new Map();
  const rows = await db
    .selectFrom('contentEntries')
    .select(['id', 'instanceKey'])
    .where('projectId', '=', projectId)
    .where('pageId', '=', pageId)
    .where('instanceKey', 'in', instanceKeys)
    .execute();
  return new Map(rows.map((r) => [r.instanceKey, r.id]));
}

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
  /** A shared value changed in a project with locales: every locale's version moves (migration 0020). */
  sharedChanged = false,
): Promise<EntryRow> {
  const query = updateEntryQuery(trx, id, set, published);
  return (
    sharedChanged ? query.set((eb) => ({ sharedVersion: eb('sharedVersion', '+', 1) })) : query
  ).executeTakeFirstOrThrow();
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

/** Whether any history record of the entry holds exactly these fields (canonical JSON text). */
export async function historyHoldsFields(
  db: DbOrTx,
  projectId: string,
  entryId: string,
  fields: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('entryHistory')
    .select('id')
    .where('projectId', '=', projectId)
    .where('entryId', '=', entryId)
    .where('fields', '=', fields)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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
  /** How many entries the page has: asked in a project with locales only (pages.service.ts). */
  entries?: number;
}

/**
 * Per page of `pageIds` (one page of GET /v1/pages): how many entries are live, how many are drafts
 * (working copy differs from the published one, or never published) and the latest change. One
 * grouped read of those pages' ranges of the (project_id, page_id, instance_key) index. `withCount`
 * adds the page's number of entries (a project with locales counts each locale's drafts from it);
 * without it the statement is the one GET /v1/pages always ran.
 */
export async function entryPageSummaries(
  db: DbOrTx,
  projectId: string,
  pageIds: readonly string[],
  withCount = false,
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
    .$if(withCount, (q) => q.select((eb) => eb.fn.countAll<number>().as('entries')))
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
    ...(withCount && { entries: Number(r.entries) }),
  }));
}
