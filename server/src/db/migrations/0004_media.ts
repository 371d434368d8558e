import type { Kysely } from 'kysely';

/**
 * Uploaded images. The bytes live in the media store (src/modules/media/storage/); a row exists
 * only while its file does: upload moves the file into place before the row commits, delete
 * commits the row's removal (and a media_deletions row) before the file goes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    // bigint: CMS_MEDIA_MAX_BYTES may be raised past what a 32-bit integer holds.
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The list: one project's media, newest (= highest id) first.
  await db.schema.createIndex('media_project_idx').on('media').columns(['project_id', 'id']).execute();

  // Files still to remove: written in the transaction that deletes a media row, removed once its
  // files are gone. A crash in between leaves the row here, and the next start finishes the job.
  await db.schema
    .createTable('media_deletions')
    .addColumn('storage_key', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('media_deletions_project_idx')
    .on('media_deletions')
    .columns(['project_id', 'media_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media_deletions').execute();
  await db.schema.dropTable('media').execute();
}
