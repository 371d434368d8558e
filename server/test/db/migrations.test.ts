import assert from 'node:assert/strict';
import { it } from 'node:test';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
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
});
