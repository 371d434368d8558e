import type { Kysely } from 'kysely';

/**
 * A scheduled publish refused by the rules of its content's definitions (contract §13, §17) keeps its
 * one-sentence `error` and records every problem: `problems`, JSON text of
 * `[{ entryId, locale, path, message }]`. Null for every existing schedule and for other failures.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('schedules').addColumn('problems', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('schedules').dropColumn('problems').execute();
}
