import type { Db, DbOrTx, Tx } from '../../db/database.js';
import { bulkUpsert, forKeyChunks } from '../../db/dialect/bulk.js';
import type { ObjectFieldRow, ObjectItemRow, ObjectRow } from './objects.table.js';
import type { FieldValueRow, ItemValueRow } from './objects.view.js';

/**
 * Objects SQL. Writes are multi-row INSERT … ON CONFLICT DO UPDATE (the same syntax on SQLite and
 * PostgreSQL) through src/db/dialect/bulk.ts, chunked below the bind-parameter limits: a save costs
 * a handful of statements whatever its size, never one per row.
 */

export interface ObjectKey {
  type: string;
  objectId: string;
}
export interface CollectionKey extends ObjectKey {
  collection: string;
}

const objectTuples = (keys: readonly ObjectKey[]) => keys.map((k) => [k.type, k.objectId]);
const collectionTuples = (keys: readonly CollectionKey[]) =>
  keys.map((k) => [k.type, k.objectId, k.collection]);

/**
 * Creates or touches the objects, in the given (sorted) order. On PostgreSQL the conflict update
 * row-locks each existing object until commit (and a concurrent insert of the same new object
 * waits for ours), so two saves of the same objects run one after the other, and the shared sort
 * order means they cannot deadlock. SQLite has a single writer anyway.
 */
export async function upsertObjects(
  trx: Tx,
  projectId: string,
  rows: readonly (ObjectKey & { published: boolean })[],
  now: string,
): Promise<void> {
  await bulkUpsert(
    trx,
    {
      table: 'objects',
      columns: ['project_id', 'type', 'object_id', 'created_at', 'updated_at', 'published_at'],
      conflict: ['project_id', 'type', 'object_id'],
      set: 'updated_at = excluded.updated_at, published_at = coalesce(excluded.published_at, objects.published_at)',
    },
    rows.map((r) => [projectId, r.type, r.objectId, now, now, r.published ? now : null]),
  );
}

/** Field rows of the given objects (inserted vs updated is told by counting before and after). */
export async function countFields(
  trx: Tx,
  projectId: string,
  objects: readonly ObjectKey[],
): Promise<number> {
  const { rows } = await forKeyChunks<{ n: number }>(
    trx,
    objectTuples(objects),
    'select count(*) as n from object_fields where project_id = :0 and (type, object_id) in',
    '',
    [projectId],
  );
  return rows.reduce((sum, r) => sum + Number(r.n), 0);
}

/** A draft row (publishedValue null) leaves the stored published value alone; a published row sets both. */
export async function upsertFields(trx: Tx, rows: readonly ObjectFieldRow[]): Promise<void> {
  await bulkUpsert(
    trx,
    {
      table: 'object_fields',
      columns: ['project_id', 'type', 'object_id', 'path', 'draft_value', 'published_value'],
      conflict: ['project_id', 'type', 'object_id', 'path'],
      set: 'draft_value = excluded.draft_value, published_value = coalesce(excluded.published_value, object_fields.published_value)',
    },
    rows.map((r) => [r.projectId, r.type, r.objectId, r.path, r.draftValue, r.publishedValue]),
  );
}

/** Item rows of the given collections. */
export async function countItems(
  trx: Tx,
  projectId: string,
  collections: readonly CollectionKey[],
): Promise<number> {
  const { rows } = await forKeyChunks<{ n: number }>(
    trx,
    collectionTuples(collections),
    'select count(*) as n from object_items where project_id = :0 and (type, object_id, collection) in',
    '',
    [projectId],
  );
  return rows.reduce((sum, r) => sum + Number(r.n), 0);
}

export async function upsertItems(trx: Tx, rows: readonly ObjectItemRow[]): Promise<void> {
  await bulkUpsert(
    trx,
    {
      table: 'object_items',
      columns: [
        'project_id',
        'type',
        'object_id',
        'collection',
        'item_id',
        'draft_value',
        'draft_position',
        'published_value',
        'published_position',
        'save_id',
      ],
      integerColumns: ['draft_position', 'published_position'],
      conflict: ['project_id', 'type', 'object_id', 'collection', 'item_id'],
      set: [
        'draft_value = excluded.draft_value',
        'draft_position = excluded.draft_position',
        'published_value = coalesce(excluded.published_value, object_items.published_value)',
        'published_position = coalesce(excluded.published_position, object_items.published_position)',
        'save_id = excluded.save_id',
      ].join(', '),
    },
    rows.map((r) => [
      r.projectId,
      r.type,
      r.objectId,
      r.collection,
      r.itemId,
      r.draftValue,
      r.draftPosition,
      r.publishedValue,
      r.publishedPosition,
      r.saveId,
    ]),
  );
}

/**
 * Takes out of the given collections every item this save did not send (their save_id is not
 * this save's). Published save: the rows go. Draft save: an item never published goes; a
 * published one only leaves the draft (its draft position is cleared). Returns how many left.
 */
export async function removeUnsentItems(
  trx: Tx,
  projectId: string,
  collections: readonly CollectionKey[],
  saveId: string,
  published: boolean,
): Promise<number> {
  const keys = collectionTuples(collections);
  const match = 'project_id = :0 and save_id <> :1 and draft_position is not null';
  const inList = 'and (type, object_id, collection) in';
  if (published) {
    const res = await forKeyChunks(
      trx,
      keys,
      `delete from object_items where project_id = :0 and save_id <> :1 ${inList}`,
      '',
      [projectId, saveId],
    );
    return res.affected;
  }
  const gone = await forKeyChunks(
    trx,
    keys,
    `delete from object_items where ${match} and published_position is null ${inList}`,
    '',
    [projectId, saveId],
  );
  const undrafted = await forKeyChunks(
    trx,
    keys,
    `update object_items set draft_position = null, draft_value = null where ${match} ${inList}`,
    '',
    [projectId, saveId],
  );
  return gone.affected + undrafted.affected;
}

export interface ViewFilter {
  projectId: string;
  /** Only these types; all when null. */
  types: readonly string[] | null;
  draft: boolean;
}

export function objectsOf(db: DbOrTx, f: ViewFilter): Promise<ObjectRow[]> {
  let q = db.selectFrom('objects').selectAll().where('projectId', '=', f.projectId);
  if (f.types) q = q.where('type', 'in', f.types);
  if (!f.draft) q = q.where('publishedAt', 'is not', null);
  return q.execute();
}

export async function fieldsOf(db: DbOrTx, f: ViewFilter): Promise<FieldValueRow[]> {
  const column = f.draft ? 'draftValue' : 'publishedValue';
  let q = db
    .selectFrom('objectFields')
    .select(['type', 'objectId', 'path', `${column} as value`])
    .where('projectId', '=', f.projectId);
  if (f.types) q = q.where('type', 'in', f.types);
  if (!f.draft) q = q.where('publishedValue', 'is not', null);
  return (await q.execute()) as FieldValueRow[];
}

export async function itemsOf(db: DbOrTx, f: ViewFilter): Promise<ItemValueRow[]> {
  const [value, position] = f.draft
    ? (['draftValue', 'draftPosition'] as const)
    : (['publishedValue', 'publishedPosition'] as const);
  let q = db
    .selectFrom('objectItems')
    .select(['type', 'objectId', 'collection', 'itemId', `${value} as value`, `${position} as position`])
    .where('projectId', '=', f.projectId)
    .where(position, 'is not', null);
  if (f.types) q = q.where('type', 'in', f.types);
  return (await q.execute()) as ItemValueRow[];
}

/**
 * Objects, field rows and item rows for one view, read in one repeatable-read transaction so a
 * save committing in between cannot tear them apart (the overlay and the snapshot both need this).
 */
export async function viewRows(db: Db, filter: Parameters<typeof objectsOf>[1]) {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(
      async (trx) =>
        [await objectsOf(trx, filter), await fieldsOf(trx, filter), await itemsOf(trx, filter)] as const,
    );
}

/**
 * Removes one object with its field and item rows (draft and published); returns the object row as
 * it was, or undefined when there was none. The object row goes first: on PostgreSQL that waits for
 * a save holding it (upsertObjects locks it), and a save that starts later waits for this commit.
 */
export async function deleteObject(
  trx: Tx,
  projectId: string,
  key: ObjectKey,
): Promise<ObjectRow | undefined> {
  const row = await trx
    .deleteFrom('objects')
    .where('projectId', '=', projectId)
    .where('type', '=', key.type)
    .where('objectId', '=', key.objectId)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  for (const table of ['objectFields', 'objectItems'] as const) {
    await trx
      .deleteFrom(table)
      .where('projectId', '=', projectId)
      .where('type', '=', key.type)
      .where('objectId', '=', key.objectId)
      .execute();
  }
  return row;
}
