import type { Kysely } from 'kysely';

/**
 * The project's preview URL template (visual editing, issue 16): the site's page for `{pageId}`, shown
 * in the dashboard's preview pane. Null (no preview) for every existing project.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('preview_url', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('preview_url').execute();
}
