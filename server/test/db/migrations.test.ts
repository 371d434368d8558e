import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { migrateDown, migrateToLatest, migrationsApplied } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { describeEachDb } from '../helpers/app.js';

describeEachDb('migrations', (ctx) => {
  it('every migration goes down and comes back up', async () => {
    const names = Object.keys(migrations);
    const undone: string[] = [];
    for (let i = 0; i < names.length; i++) {
      const { results } = await migrateDown(ctx.db);
      assert.equal(results?.[0]?.status, 'Success');
      undone.push(results![0]!.migrationName);
    }
    assert.deepEqual(undone, [...names].reverse());
    const { results } = await migrateToLatest(ctx.db);
    assert.deepEqual(
      results?.map((r) => r.migrationName),
      names,
    );
    // The schema is whole again: a project can be created.
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'After', admin: { email: 'after@example.com', password: 'long enough pw' } },
    });
    assert.equal(res.statusCode, 201);
  });

  it('an up-to-date database is left as it is; one a newer build migrated is refused', async () => {
    assert.deepEqual((await migrateToLatest(ctx.db)).results, []);
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_build', ${new Date().toISOString()})`.execute(
      ctx.db,
    );
    try {
      await assert.rejects(migrateToLatest(ctx.db), /9999_from_a_newer_build/);
      // Readiness still holds: an older instance beside a newer build's migrations keeps serving.
      assert.equal(await migrationsApplied(ctx.db), true);
    } finally {
      await sql`delete from kysely_migration where name = '9999_from_a_newer_build'`.execute(ctx.db);
    }
  });
});
