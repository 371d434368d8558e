import type { Kysely } from 'kysely';

/**
 * Preview tokens (contract §10): read-only credentials a member hands to a site's preview, one
 * project each. Only the SHA-256 of the token is stored (256 random bits: a fast hash is enough, and
 * a request costs one lookup by primary key), like sessions and secret keys. Expired rows are pruned
 * by the worker; `expires_at` is indexed for that sweep, `project_id` and `created_by` for the cascades.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('preview_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('preview_tokens_expires_idx')
    .on('preview_tokens')
    .column('expires_at')
    .execute();
  // The cascades when a project or an account goes, without scanning every token.
  await db.schema
    .createIndex('preview_tokens_project_idx')
    .on('preview_tokens')
    .column('project_id')
    .execute();
  await db.schema
    .createIndex('preview_tokens_creator_idx')
    .on('preview_tokens')
    .column('created_by')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('preview_tokens').execute();
}
