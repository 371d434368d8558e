import assert from 'node:assert/strict';
import { it } from 'node:test';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { failPending } from '../../src/modules/schedules/schedules.repository.js';
import { describeEachDb } from '../helpers/app.js';
import { heroEntry, newSite } from '../helpers/content.js';
import { createSchedule, inMs, listSchedules } from '../helpers/schedules.js';

/** 0018_schedule_problems on a database that holds schedules: down and up keep them. */
describeEachDb('migration 0018_schedule_problems', (ctx) => {
  it('adds problems to existing schedules (null) and goes down and up on a populated database', async () => {
    const site = await newSite(ctx.app);
    const entryId = await heroEntry(ctx.app, site);
    const pending = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(3_600_000) });
    const refused = await createSchedule(ctx.app, site, {
      action: 'publish',
      pageId: '/',
      at: inMs(3_600_000),
    });
    const problems = [{ entryId, locale: null, path: 'fields.title', message: 'is required' }];
    await failPending(ctx.db, refused.id, new Date().toISOString(), 'Refused.', JSON.stringify(problems));

    const before = await listSchedules(ctx.app, site);
    assert.deepEqual((before.find((s) => s.id === refused.id) as { problems?: unknown }).problems, problems);

    // Down to just before 0018 (past any later migration).
    const names = Object.keys(migrations);
    const downs: string[][] = [];
    for (let i = names.indexOf('0018_schedule_problems'); i < names.length; i++)
      downs.push(...((await migrateDown(ctx.db)).results ?? []).map((r) => [r.migrationName, r.status]));
    assert.deepEqual(downs.at(-1), ['0018_schedule_problems', 'Success']);
    assert.ok(downs.every(([, status]) => status === 'Success'));
    const kept = await ctx.db.selectFrom('schedules').select(['id', 'status', 'error']).execute();
    assert.deepEqual(kept.map((s) => s.id).sort(), [pending.id, refused.id].sort());

    assert.deepEqual(
      (await migrateToLatest(ctx.db)).results?.map((r) => r.migrationName),
      names.slice(names.indexOf('0018_schedule_problems')),
    );
    const after = await listSchedules(ctx.app, site);
    assert.equal(after.length, 2);
    for (const s of after) assert.equal('problems' in s, false); // the column came back empty
    const failed = after.find((s) => s.id === refused.id);
    assert.equal(failed?.status, 'failed');
    assert.equal(failed?.error, 'Refused.');
  });
});
