import type { Kysely } from 'kysely';

/**
 * Webhooks, their deliveries, durable deploy triggers and deploy hook calls.
 *
 * Deliveries and deploy calls share the same attempt columns (status, attempt_count, schedule_step,
 * next_attempt_at, locked_until, outcome of the last attempt) so one worker loop drives both. The
 * lease `locked_until` is what makes a claim survive a crash: a row claimed by a process that died is
 * claimable again once its lease has passed (graphile-worker style), so nothing is lost.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_project_idx').on('webhooks').columns(['project_id', 'id']).execute();

  const attemptColumns = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempt_count', 'integer', (c) => c.notNull())
      .addColumn('schedule_step', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('last_attempt_at', 'text')
      .addColumn('response_code', 'integer')
      .addColumn('duration_ms', 'integer')
      .addColumn('error', 'text')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull());

  await attemptColumns('webhook_deliveries')
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  // The worker's scan (due pending rows) and the per-webhook log (newest first).
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook_idx')
    .on('webhook_deliveries')
    .columns(['project_id', 'webhook_id', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_created_idx')
    .on('webhook_deliveries')
    .columns(['created_at'])
    .execute();

  await attemptColumns('deploys')
    .addColumn('hook_id', 'text', (c) => c.notNull())
    .addColumn('hook_type', 'text', (c) => c.notNull())
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deploys_due_idx')
    .on('deploys')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('deploys_project_idx').on('deploys').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('deploys_created_idx').on('deploys').columns(['created_at']).execute();

  // One pending (debounced) deploy trigger per project; deleted when it fires.
  await db.schema
    .createTable('deploy_triggers')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('first_at', 'text', (c) => c.notNull())
    .addColumn('last_at', 'text', (c) => c.notNull())
    .addColumn('fire_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deploy_triggers_fire_idx')
    .on('deploy_triggers')
    .columns(['fire_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['deploy_triggers', 'deploys', 'webhook_deliveries', 'webhooks']) {
    await db.schema.dropTable(table).execute();
  }
}
