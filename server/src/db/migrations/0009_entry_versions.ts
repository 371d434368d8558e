import { type Kysely, sql } from 'kysely';

/**
 * Concurrent edits (contract part two, §7): every entry carries `version`, 1 for a new stub and one
 * more on every change, so an editor can send `If-Match: "<version>"` and get 412 instead of
 * overwriting a colleague's edit.
 *
 * `published_version` is the version the published copy was made at (null while not live): a
 * visitor's read shows it, the way it shows `publishedAt` as `updatedAt`. Rejected: showing visitors
 * the current `version`, which every draft save changes, so each save would have to drop the cached
 * published page on every instance and change its ETag while visitors see the same fields.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('content_entries')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('content_entries').addColumn('published_version', 'integer').execute();
  await sql`update content_entries set published_version = 1 where published_fields is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('content_entries').dropColumn('published_version').execute();
  await db.schema.alterTable('content_entries').dropColumn('version').execute();
}
