import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CamelCasePlugin, type Dialect, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { CamelCaseAtCompile, mappingIdentifiers } from '../../src/db/snake-case.js';

/**
 * src/db/snake-case.ts maps identifiers in the compiler instead of Kysely's CamelCasePlugin tree
 * rewrite: every query must compile to the same SQL and parameters both ways, on both dialects.
 * Nothing is executed (the drivers are never asked for a connection).
 */
const none = {} as never;
const queries = (db: Kysely<Database>) => [
  db.selectFrom('contentEntries').selectAll().where('projectId', '=', 'p').where('pageId', '=', '/'),
  db
    .selectFrom('contentEntries as e')
    .innerJoin('componentDefinitions as d', (j) =>
      j.onRef('d.projectId', '=', 'e.projectId').onRef('d.instanceKey', '=', 'e.instanceKey'),
    )
    .select(['e.publishedFields', 'd.fields as declaredFields'])
    .select((eb) => eb.selectFrom('sessions').select('sessions.accountId').limit(1).as('someAccountId'))
    .where('e.publishedVersion', 'is not', null)
    .orderBy('e.updatedAt', 'desc'),
  db
    .updateTable('contentEntries')
    .set((eb) => ({ publishedFields: sql<string>`fields`, version: eb('version', '+', 1) }))
    .where('id', '=', 'ent_1')
    .returningAll(),
  db
    .insertInto('entryHistory')
    .values({
      id: 'his_1',
      projectId: 'p',
      entryId: 'e',
      action: 'publish',
      fields: '{}',
      actorId: 'a',
      actorEmail: 'a@example.com',
      at: 'now',
    })
    .onConflict((oc) => oc.column('id').doNothing()),
  db.deleteFrom('webhookDeliveries').where('nextAttemptAt', '<', 'now'),
  db
    .with('recent', (q) => q.selectFrom('activity').select(['projectId', 'actorType']))
    .selectFrom('recent')
    .select((eb) => [
      eb.fn.countAll().as('rowCount'),
      sql`max(${sql.ref('recent.actorType')})`.as('lastType'),
    ])
    .groupBy('recent.projectId'),
  sql`select ${sql.ref('contentEntries.instanceKey')} from ${sql.table('contentEntries')} as ${sql.id('someAlias')}`,
];

function compiled(dialect: Dialect, plugins: CamelCasePlugin[]) {
  const db = new Kysely<Database>({ dialect, plugins });
  return queries(db).map((q) => {
    const c = q.compile(db as never);
    return { sql: c.sql, parameters: c.parameters };
  });
}

describe('identifiers mapped by the compiler (src/db/snake-case.ts)', () => {
  it('compile to the same SQL as CamelCasePlugin on PostgreSQL', () => {
    const ours = new CamelCaseAtCompile();
    assert.deepEqual(
      compiled(mappingIdentifiers(new PostgresDialect({ pool: none }), ours), [ours]),
      compiled(new PostgresDialect({ pool: none }), [new CamelCasePlugin()]),
    );
  });

  it('compile to the same SQL as CamelCasePlugin on SQLite', () => {
    const ours = new CamelCaseAtCompile();
    assert.deepEqual(
      compiled(mappingIdentifiers(new SqliteDialect({ database: none }), ours), [ours]),
      compiled(new SqliteDialect({ database: none }), [new CamelCasePlugin()]),
    );
  });

  it('map result rows back to camelCase', async () => {
    const ours = new CamelCaseAtCompile();
    const result = await ours.transformResult({
      queryId: { queryId: 'q' },
      result: { rows: [{ published_fields: '{}', page_id: '/', version: 2 }] },
    });
    assert.deepEqual(result.rows, [{ publishedFields: '{}', pageId: '/', version: 2 }]);
  });
});
