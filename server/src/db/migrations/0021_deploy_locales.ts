import type { Kysely } from 'kysely';

/**
 * A deploy of a project with locales names the locales whose content changed (contract §17: the generic
 * hook's body gains `locales`). The pending trigger gathers them from the events it folds, and each call
 * keeps its trigger's: JSON arrays of codes, `*` standing for every locale the project has when the call
 * is sent (objects, which every locale's content holds). Null on every existing row: those calls are sent
 * as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deploy_triggers').addColumn('locales', 'text').execute();
  await db.schema.alterTable('deploys').addColumn('locales', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deploys').dropColumn('locales').execute();
  await db.schema.alterTable('deploy_triggers').dropColumn('locales').execute();
}
