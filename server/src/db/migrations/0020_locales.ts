import type { Kysely } from 'kysely';

/**
 * Languages (contract §14). Nothing is moved: an entry's row stays its default locale's slot (working
 * copy, published copy, version), which is what "the content that exists becomes the default locale's"
 * asks, and keeps a project without locales on exactly the statements it ran before. Flipping a field's
 * `localized` then moves nothing either: the row's value is the default locale's and the shared one.
 *
 * - `projects.locales`: the setting as canonical JSON text; null is one language (everything as before).
 * - `entry_locales`: one row per entry and other locale that holds something of its own: `fields` has
 *   that locale's values of localized fields only (shared values stay on the entry), `published_fields`
 *   its published copy (shared values as they were at its publish, and its own localized values).
 *   `version` counts that locale's own changes; the locale's version (§17) is it plus the entry's
 *   `shared_version`, which counts changes to shared values, so a shared edit moves every locale's
 *   version and a translator's save moves only theirs. A row of a removed locale stays, unread, and
 *   comes back with the locale.
 * - `locale` on history, schedules and activity: the locale each acted in (null without locales).
 *
 * Down drops the other locales' values (the previous schema has nowhere to hold them); the default
 * locale's content, being the entries' own, is kept whole.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('locales', 'text').execute();
  await db.schema
    .alterTable('content_entries')
    .addColumn('shared_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('entry_locales')
    .addColumn('entry_id', 'text', (c) => c.notNull().references('content_entries.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('published_fields', 'text')
    .addColumn('published_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('published_version', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('entry_locales_pk', ['entry_id', 'locale'])
    .execute();
  // Which locales hold values in a project (PATCH locales: null, §17), and a locale's published rows (snapshots).
  await db.schema
    .createIndex('entry_locales_project_idx')
    .on('entry_locales')
    .columns(['project_id', 'locale'])
    .execute();
  for (const table of ['entry_history', 'schedules', 'activity']) {
    await db.schema.alterTable(table).addColumn('locale', 'text').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['entry_history', 'schedules', 'activity']) {
    await db.schema.alterTable(table).dropColumn('locale').execute();
  }
  await db.schema.dropTable('entry_locales').execute();
  await db.schema.alterTable('content_entries').dropColumn('shared_version').execute();
  await db.schema.alterTable('projects').dropColumn('locales').execute();
}
