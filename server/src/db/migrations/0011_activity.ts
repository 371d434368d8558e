import type { Kysely } from 'kysely';

/**
 * The activity log (contract §8). Read newest first per project, optionally filtered by one of
 * action, target or actor: each filter has an index that starts with the project and ends with the
 * (time-sortable) id, so a page of any filter is an index range scan however long the log grows.
 * Retention deletes by primary-key range (ids start with their time), so no index on `at`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activity_project_idx').on('activity').columns(['project_id', 'id']).execute();
  await db.schema
    .createIndex('activity_action_idx')
    .on('activity')
    .columns(['project_id', 'action', 'id'])
    .execute();
  await db.schema
    .createIndex('activity_target_idx')
    .on('activity')
    .columns(['project_id', 'target_id', 'id'])
    .execute();
  await db.schema
    .createIndex('activity_actor_idx')
    .on('activity')
    .columns(['project_id', 'actor_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('activity').execute();
}
