import type { Kysely } from 'kysely';

/**
 * Issue 42 (contract §23): an invitation of an email that already has an account is pending until that
 * account accepts it with the invitation's token.
 *
 * Pending invitations get their own table rather than a `status` column on `memberships`: every query
 * that grants access (the session's role, the account's projects, admin counts, key coverage, the
 * reset right, preview tokens, scheduled publishing) reads `memberships`, so a pending invitation
 * there would need a `status = 'active'` filter in each of them, and one forgotten filter, today or in
 * a later change, would let an invited stranger in. Kept apart, an invitation grants nothing by
 * construction, and those statements stay exactly as they were. Every existing membership is active,
 * as it was. The API shows both as members with a `status` (`active` or `invited`).
 *
 * One invitation per (project, account), the membership's key; only the SHA-256 of its token is stored
 * (unique: the accept finds it by that hash); `expires_at` 72 hours after `created_at`; `invited_by` the
 * admin who issued it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('invitations_pk', ['project_id', 'account_id'])
    .execute();
  await db.schema
    .createIndex('invitations_token_idx')
    .on('invitations')
    .column('token_hash')
    .unique()
    .execute();
}

/** Pending invitations are dropped: their accounts never joined, and their tokens stop working. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invitations').execute();
}
