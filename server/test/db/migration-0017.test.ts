import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, sync } from '../helpers/content.js';
import { bearer, call, uniqueEmail } from '../helpers/factories.js';

const NAME = '0017_passwords_page_order';
const component = (instanceKey: string) => ({
  componentId: 'Text',
  instanceKey,
  fields: [{ key: 'body', type: 'text' }],
});

/** Migration 0017 (set-password tokens, page order) down and up again on a database with data in it. */
describeEachDb('migration 0017 on a populated database', (ctx) => {
  it('goes down and back up keeping every definition and entry; old pages keep their order', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [component('pricing'), component('hero'), component('features')]);
    const invited = await call(ctx.app, {
      method: 'POST',
      url: '/v1/users',
      headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
      payload: { email: uniqueEmail(), role: 'editor' },
    });
    assert.equal(invited.status, 201);
    const before = await editorEntries(ctx.app, site, '/');

    // Down to just before 0017 (migrations after it, if any, go first).
    for (;;) {
      const { results } = await migrateDown(ctx.db);
      assert.equal(results?.[0]?.status, 'Success');
      if (results![0]!.migrationName === NAME) break;
    }
    const definitions = await sql<{ n: number }>`select count(*) as n from component_definitions`.execute(
      ctx.db,
    );
    assert.equal(Number(definitions.rows[0]?.n), 3);
    await assert.rejects(sql`select 1 from set_password_tokens`.execute(ctx.db));
    await assert.rejects(sql`select position from component_definitions`.execute(ctx.db));

    await migrateToLatest(ctx.db);
    const positions = await sql<{ position: number }>`select position from component_definitions`.execute(
      ctx.db,
    );
    assert.deepEqual(
      positions.rows.map((r) => Number(r.position)),
      [0, 0, 0],
    );
    // Definitions from before the migration all have position 0: the page reads in instanceKey order,
    // as it did, until its next sync.
    const after = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(
      after.map((e) => e.instanceKey),
      ['features', 'hero', 'pricing'],
    );
    assert.deepEqual(after.map((e) => e.id).sort(), before.map((e) => e.id).sort());
    // The invitation's token went with the table: a new link can be issued and used.
    const reset = await call(ctx.app, {
      method: 'POST',
      url: `/v1/users/${invited.body.data.id}/password-reset`,
      headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const used = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/set-password',
      payload: { token: reset.body.data.setPasswordToken, password: 'a fresh passphrase' },
    });
    assert.equal(used.status, 200);
  });
});
