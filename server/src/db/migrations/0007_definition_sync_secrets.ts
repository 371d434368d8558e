import type { Kysely } from 'kysely';

/**
 * Who may change definitions (contract §11) and the shared sync limit.
 *
 * - `projects.definition_sync`: what a sync with the publishable key may do (`additive`, `locked`,
 *   `open`); existing projects become `additive`, the safe default.
 * - `definition_sync_counts`: one fixed one-minute window per project counting publishable-key
 *   syncs. A counter row (one atomic upsert per sync) rather than one row per attempt, as the login
 *   limit keeps: a site may sync often, and the count must be exact across instances without a
 *   read-then-write race. Old windows are pruned when a project opens a new one.
 *
 * Secrets at rest need no schema change: webhook and deploy-hook secrets stay `text` columns and
 * hold the sealed form (`fk1:<keyId>:<iv>:<ciphertext>`) written by src/shared/secret-box.ts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('definition_sync', 'text', (c) => c.notNull().defaultTo('additive'))
    .execute();
  await db.schema
    .createTable('definition_sync_counts')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('definition_sync_counts_pk', ['project_id', 'window_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('definition_sync_counts').execute();
  await db.schema.alterTable('projects').dropColumn('definition_sync').execute();
}
