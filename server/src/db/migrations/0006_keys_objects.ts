import type { Kysely } from 'kysely';
import { setFillFactor } from '../dialect/index.js';

/**
 * Secret API keys (account-owned, scoped to sites) and schemaless objects.
 *
 * Objects keep one row per field path and one per collection item, each holding a draft and a
 * published value side by side (rather than separate draft/published rows): a save is then one
 * upsert per row whatever its status, and both views read the same rows. SQL NULL in a `published_*`
 * column means "not published"; a JSON null value is stored as the text `null`.
 *
 * object_fields and object_items carry no foreign key to objects: they are written only by the
 * save that upserts their object in the same transaction, and PostgreSQL's per-row FK trigger was
 * half the cost of inserting 20,000 items (300 ms). Deleting a project or an object must therefore
 * delete its field and item rows explicitly (no such route exists yet).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // SHA-256 of the whole key: keys carry 256 random bits, so a fast hash is enough and a
    // request costs one indexed lookup.
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id', 'id']).execute();

  // The sites of a `selected` key; a project deleted later drops out by cascade.
  await db.schema
    .createTable('api_key_projects')
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('api_key_projects_pk', ['key_id', 'project_id'])
    .execute();
  // The keys of a project (and the cascade when a project goes) without scanning every key's sites.
  await db.schema
    .createIndex('api_key_projects_project_idx')
    .on('api_key_projects')
    .column('project_id')
    .execute();

  // One row per object: its existence, its timestamps, and the row a save locks (PostgreSQL) so
  // concurrent saves of the same object run one after the other.
  await db.schema
    .createTable('objects')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .addPrimaryKeyConstraint('objects_pk', ['project_id', 'type', 'object_id'])
    .execute();

  await db.schema
    .createTable('object_fields')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('draft_value', 'text', (c) => c.notNull())
    .addColumn('published_value', 'text')
    .addPrimaryKeyConstraint('object_fields_pk', ['project_id', 'type', 'object_id', 'path'])
    .execute();

  await db.schema
    .createTable('object_items')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    // NULL position: the item is not in that view's collection (removed from the draft while
    // still published, or not published yet).
    .addColumn('draft_value', 'text')
    .addColumn('draft_position', 'integer')
    .addColumn('published_value', 'text')
    .addColumn('published_position', 'integer')
    // Id of the last save that sent this item: after upserting a collection, rows of that
    // collection with another save id are exactly the items the save left out (removed in SQL,
    // without reading the collection back).
    .addColumn('save_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('object_items_pk', ['project_id', 'type', 'object_id', 'collection', 'item_id'])
    .execute();

  // Re-saves rewrite every sent row; free room on each page lets PostgreSQL update in place (HOT)
  // instead of moving the row and adding an index entry. Measured on a 20,000-item re-save.
  await setFillFactor(db, 'object_fields', 70);
  await setFillFactor(db, 'object_items', 70);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['object_items', 'object_fields', 'objects', 'api_key_projects', 'api_keys']) {
    await db.schema.dropTable(table).execute();
  }
}
