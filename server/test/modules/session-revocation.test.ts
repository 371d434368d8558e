import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { countStatements } from '../../bench/writes/statements.js';
import { describeEachDb, secondInstance } from '../helpers/app.js';
import { heroEntry, newSite, type Site } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

/**
 * PATCH /v1/content/:entryId lets a session through on what the instance last read of it and
 * verifies it in the write's first statement (src/modules/auth/session-check.ts). A revoked session
 * must fail on its next request on every instance: here the session is used on B (so B remembers
 * it), revoked through A, and the next PATCH on B must be refused and write nothing. On SQLite,
 * where one instance owns the file, A and B are the same app.
 */
describeEachDb('session revocation on the write path', (ctx) => {
  const instanceB = secondInstance(ctx);

  const admin = (site: Site) => ({ ...bearer(site.admin.token), 'x-cms-project-id': site.project.id });
  const patchOnB = (
    site: Site,
    id: string,
    payload: object = { fields: { title: 'x' }, status: 'published' },
  ) => call(instanceB(), { method: 'PATCH', url: `/v1/content/${id}`, headers: site.editing, payload });
  const version = async (id: string) =>
    (await sql<{ version: number }>`select version from content_entries where id = ${id}`.execute(ctx.db))
      .rows[0]?.version;

  /** An entry the editor has just written through B twice (B now remembers the session and role). */
  async function warmed() {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    for (const title of ['one', 'two']) {
      const res = await patchOnB(site, id, { fields: { title }, status: 'published' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    return { site, id, before: await version(id) };
  }

  it('sign-out on A: the next PATCH on B is 401 and writes nothing', async () => {
    const { site, id, before } = await warmed();
    const out = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/logout',
      headers: bearer(site.editor.token),
    });
    assert.equal(out.status, 200);
    const res = await patchOnB(site, id);
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'unauthorized');
    assert.equal(await version(id), before);
  });

  it('a refresh on A ends the old token on B', async () => {
    const { site, id, before } = await warmed();
    const refreshed = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: bearer(site.editor.token),
    });
    assert.equal(refreshed.status, 200);
    assert.equal((await patchOnB(site, id)).status, 401);
    assert.equal(await version(id), before);
  });

  it('the member removed on A: the next PATCH on B is 403 and writes nothing', async () => {
    const { site, id, before } = await warmed();
    const removed = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/users/${site.editor.id}`,
      headers: admin(site),
    });
    assert.equal(removed.status, 200);
    const res = await patchOnB(site, id);
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'forbidden');
    assert.equal(await version(id), before);
  });

  it('an expired session is refused, even with an invalid body or an unknown entry (never 400 or 404)', async () => {
    const { site, id, before } = await warmed();
    await sql`update sessions set expires_at = '2000-01-01T00:00:00.000Z' where account_id = ${site.editor.id}`.execute(
      ctx.db,
    );
    assert.equal((await patchOnB(site, id)).status, 401);
    assert.equal((await patchOnB(site, id, { fields: 'not an object' })).status, 401);
    assert.equal((await patchOnB(site, 'ent_unknown')).status, 401);
    assert.equal(await version(id), before);
  });

  it('a live session still gets its 400, 404 and 412 after the check', async () => {
    const { site, id } = await warmed();
    assert.equal((await patchOnB(site, id, { fields: 'not an object' })).status, 400);
    assert.equal((await patchOnB(site, 'ent_unknown')).status, 404);
    const stale = await call(instanceB(), {
      method: 'PATCH',
      url: `/v1/content/${id}`,
      headers: { ...site.editing, 'if-match': '"1"' },
      payload: { fields: { title: 'late' } },
    });
    assert.equal(stale.status, 412);
  });

  it('a publish PATCH with a known session makes no session or role query of its own', async (t) => {
    if (ctx.kind !== 'postgres') return t.skip('counted on PostgreSQL, where each statement is a round trip');
    const { first, publish } = await countStatements('postgres');
    // An entry this instance has not written yet: begin; the entry locked with its definition and the
    // session check; the write; commit.
    assert.equal(first.length, 4, first.join('\n'));
    // One it knows: the optimistic write alone, the session check among its conditions.
    assert.equal(publish.length, 1, publish.join('\n'));
    assert.match(publish[0] as string, /"sessions"/, 'the session is checked by the write itself');
    for (const statements of [first, publish]) {
      assert.ok(!statements.some((s) => s.startsWith('select "sessions".')), 'no separate session query');
      assert.ok(
        !statements.some((s) => s.startsWith('select "role" from "memberships"')),
        'no separate role query',
      );
    }
  });
});
