import type { Kysely } from 'kysely';

/**
 * Issue 37 (contract §15, §17).
 *
 * `set_password_tokens`: set-password links for invitations and resets. Only the SHA-256 of a token
 * is stored (a database leak yields no usable link); one per account (the unique index: issuing a
 * newer one deletes the older); `issued_by` is the admin who issued it, whose right is checked again
 * when the link is used. An account created without a password keeps `password_hash` '' (the column
 * stays NOT NULL: SQLite cannot drop that constraint without rebuilding the table), which no sign-in
 * matches.
 *
 * `component_definitions.position`: a page's components in the order its site renders them, as the
 * syncs send them (see docs/api.md). Existing definitions all get 0, so their pages keep the order
 * they had (instanceKey, the tie-break) until their next sync.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('set_password_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('issued_by', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('set_password_tokens_account_idx')
    .on('set_password_tokens')
    .column('account_id')
    .unique()
    .execute();
  await db.schema
    .alterTable('component_definitions')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('component_definitions').dropColumn('position').execute();
  await db.schema.dropTable('set_password_tokens').execute();
}
