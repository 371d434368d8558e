import type { Kysely } from 'kysely';

/**
 * Scheduled publishing (contract §9). A schedule names its target by id (`entry_id`, or `page_id`)
 * without a foreign key: the entry may be deleted before the schedule runs, and the schedule must
 * then stay, to end `failed` with its reason, not vanish in a cascade. `target_page_id` is the page
 * it acts on (its `page_id`, or its entry's page): schedules of one page run in `at` order, whatever
 * the number of workers (schedules.repository.ts).
 *
 * Indexes: the worker's "due now" lookup across all projects, in claim order (status, at, id), so
 * a claim reads the first due rows rather than sorting all of them; "is an earlier schedule of this
 * page pending?" (project_id, target_page_id, status, at, id), one probe per candidate; a project's
 * pending schedules by time (project_id, status, at, id: GET ?status=pending, and the first part of
 * the unfiltered list); a project's schedules newest first (project_id, id: every other list); and
 * the account cascade (created_by). Without the first two, a claim among N due schedules cost N
 * probes of N rows each (bench/schedules). A project's schedules number in the hundreds, not millions, so the
 * lists filtered by another status read the (project_id, id) range and filter, rather than keeping
 * one more index per order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text')
    .addColumn('page_id', 'text')
    .addColumn('target_page_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_by_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('executed_at', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('schedules_due_idx').on('schedules').columns(['status', 'at', 'id']).execute();
  await db.schema
    .createIndex('schedules_page_idx')
    .on('schedules')
    .columns(['project_id', 'target_page_id', 'status', 'at', 'id'])
    .execute();
  await db.schema
    .createIndex('schedules_project_status_idx')
    .on('schedules')
    .columns(['project_id', 'status', 'at', 'id'])
    .execute();
  await db.schema
    .createIndex('schedules_project_idx')
    .on('schedules')
    .columns(['project_id', 'id'])
    .execute();
  await db.schema.createIndex('schedules_creator_idx').on('schedules').column('created_by').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('schedules').execute();
}
