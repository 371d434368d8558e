import type { Kysely } from 'kysely';

/**
 * Content: component definitions registered by the site, entries with a working and a published
 * copy, and the publish audit trail. Field maps are stored as RFC 8785 canonical JSON text, so
 * "working copy equals published copy" is a string comparison both dialects do in SQL, and the
 * snapshot can splice stored text into its canonical form without re-parsing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('component_definitions')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('instance_key', 'text', (c) => c.notNull())
    .addColumn('component_id', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('component_definitions_pk', ['project_id', 'page_id', 'instance_key'])
    .execute();

  await db.schema
    .createTable('content_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('instance_key', 'text', (c) => c.notNull())
    .addColumn('component_id', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('published_fields', 'text')
    .addColumn('published_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One entry per (page, instance); also serves "entries of a page" and the project-wide snapshot scan.
  await db.schema
    .createIndex('content_entries_page_idx')
    .on('content_entries')
    .columns(['project_id', 'page_id', 'instance_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('entry_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('entry_id', 'text', (c) => c.notNull().references('content_entries.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    // Denormalised: the trail keeps who acted even after the account leaves the project.
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('entry_history_entry_idx')
    .on('entry_history')
    .columns(['project_id', 'entry_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['entry_history', 'content_entries', 'component_definitions']) {
    await db.schema.dropTable(table).execute();
  }
}
