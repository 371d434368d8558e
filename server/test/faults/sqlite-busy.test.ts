import assert from 'node:assert/strict';
import { it } from 'node:test';
import SQLite from 'better-sqlite3';
import { describeEachDb } from '../helpers/app.js';
import { heroEntry, newSite, patchEntry } from '../helpers/content.js';

// The SQLite side of `503 unavailable`: another process holds the file's write lock past
// busy_timeout (5 s). The write is refused as unavailable with Retry-After, not a 500, and nothing
// of it is written.
describeEachDb('a database that stays busy', (ctx) => {
  it('a write that cannot get the SQLite lock is 503 unavailable with Retry-After', async (t) => {
    if (ctx.database.config.kind !== 'sqlite')
      return t.skip('SQLite only (PostgreSQL: test/faults/pg-terminate)');
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const other = new SQLite(ctx.database.config.file);
    try {
      other.exec('BEGIN IMMEDIATE');
      const res = await patchEntry(ctx.app, site, id, { fields: { title: 'blocked' } });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'unavailable');
      assert.ok(Number(res.headers['retry-after']) >= 1);
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
    const after = await patchEntry(ctx.app, site, id, { fields: {} });
    assert.equal(after.status, 200);
    assert.notEqual(after.body.data.fields.title, 'blocked');
  });
});
