import type { Kysely } from 'kysely';

/**
 * One table for every limit counted in fixed windows (src/modules/rate-limits/window-limiter.ts):
 * the publishable-key definitions sync (per project) and unauthenticated project creation (per
 * client address, until now in memory per instance). `key` is `<scope>:<subject>`; `expires_at` is
 * indexed for the prune that the first request of each window runs.
 *
 * It replaces `definition_sync_counts` (0007), whose project foreign key could not hold a client
 * address. The counts are transient (one minute), so they are not carried over: at worst a project
 * gets a fresh sync window at the moment of the upgrade. Down recreates the old table empty.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_counts')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counts_pk', ['key', 'window_start'])
    .execute();
  await db.schema
    .createIndex('rate_limit_counts_expires_idx')
    .on('rate_limit_counts')
    .column('expires_at')
    .execute();
  await db.schema.dropTable('definition_sync_counts').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('definition_sync_counts')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('definition_sync_counts_pk', ['project_id', 'window_start'])
    .execute();
  await db.schema.dropTable('rate_limit_counts').execute();
}
