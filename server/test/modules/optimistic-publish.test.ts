import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDb, secondInstance } from '../helpers/app.js';
import { HERO, heroEntry, newSite, patchEntry, type Site, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

/**
 * The PATCH of an entry an instance has written before is one statement on PostgreSQL, planned on
 * what that instance remembers (src/modules/content/entry-memo.ts) and written only while none of it
 * changed. Here instance B remembers the entry and the world changes through instance A: B must
 * never write on stale facts, and a miss must leave nothing behind (no history, event or activity
 * row of its own). On SQLite, where one instance owns the file, A and B are the same app (the locked
 * path), and every expectation is the same.
 */
describeEachDb('optimistic PATCH on facts an instance remembers', (ctx) => {
  const instanceB = secondInstance(ctx);

  const rows = async (table: 'entry_history' | 'events' | 'activity', projectId: string) =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*) as n from ${sql.table(table)} where project_id = ${projectId}`.execute(ctx.db)
      ).rows[0]?.n,
    );
  const counts = async (site: Site) => ({
    history: await rows('entry_history', site.project.id),
    events: await rows('events', site.project.id),
    activity: await rows('activity', site.project.id),
  });
  /** `n` publishes' rows more than `before`: a history row, an event and an activity record each. */
  const plus = (before: Awaited<ReturnType<typeof counts>>, n: number) => ({
    history: before.history + n,
    events: before.events + n,
    activity: before.activity + n,
  });
  const stored = async (id: string) =>
    (
      await sql<{
        fields: string;
        version: number;
      }>`select fields, version from content_entries where id = ${id}`.execute(ctx.db)
    ).rows[0];

  /** An entry B has published twice: B remembers it. */
  async function rememberedOnB() {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    for (const title of ['one', 'two']) {
      const res = await patchEntry(instanceB(), site, id, { fields: { title }, status: 'published' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    return { site, id };
  }

  it('a write on A since: B merges onto it (no lost update), and its miss writes no row of its own', async () => {
    const { site, id } = await rememberedOnB();
    const onA = await patchEntry(ctx.app, site, id, { fields: { count: 7 }, status: 'published' });
    assert.equal(onA.status, 200);
    const before = await counts(site);
    const onB = await patchEntry(instanceB(), site, id, { fields: { title: 'three' }, status: 'published' });
    assert.equal(onB.status, 200, JSON.stringify(onB.body));
    assert.deepEqual(onB.body.data.fields, { title: 'three', count: 7 });
    assert.equal(onB.body.data.version, onA.body.data.version + 1);
    assert.deepEqual(JSON.parse((await stored(id))?.fields as string), { title: 'three', count: 7 });
    assert.deepEqual(await counts(site), plus(before, 1));
  });

  it('If-Match is compared with the stored version, not the remembered one', async () => {
    const { site, id } = await rememberedOnB();
    const current = (await stored(id))?.version as number;
    const ifMatch = (version: number) =>
      call(instanceB(), {
        method: 'PATCH',
        url: `/v1/content/${id}`,
        headers: { ...site.editing, 'if-match': `"${version}"` },
        payload: { fields: { title: 'matched' }, status: 'published' },
      });
    assert.equal((await ifMatch(current - 1)).status, 412);
    // A's write moves the version on: B's remembered version is now stale, and so is the caller's.
    assert.equal((await patchEntry(ctx.app, site, id, { fields: { count: 1 } })).status, 200);
    assert.equal((await ifMatch(current)).status, 412);
    const ok = await ifMatch(current + 1);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.data.version, current + 2);
  });

  it('a definition synced on A since: B validates against the new one', async () => {
    const { site, id } = await rememberedOnB();
    const subtitle = { ...HERO, fields: [...HERO.fields, { key: 'subtitle', type: 'text' }] };
    await sync(ctx.app, site, '/', [subtitle]);
    const added = await patchEntry(instanceB(), site, id, {
      fields: { subtitle: 'new field' },
      status: 'published',
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal(added.body.data.fields.subtitle, 'new field');
    // A type changed by an admin: a value B's remembered definition accepts is now refused.
    const before = await stored(id);
    const retyped = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: { ...site.key, ...bearer(site.admin.token) },
      payload: {
        pageId: '/',
        components: [{ ...HERO, fields: [{ key: 'title', type: 'number' }, ...HERO.fields.slice(1)] }],
      },
    });
    assert.equal(retyped.status, 200, JSON.stringify(retyped.body));
    assert.equal((await stored(id))?.version, before?.version, 'the sync did not touch the entry');
    const refused = await patchEntry(instanceB(), site, id, {
      fields: { title: 'still text' },
      status: 'published',
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.deepEqual(await stored(id), before);
  });

  it('ten PATCHes of one entry at once on B: every change lands, one version and one row each', async () => {
    const { site, id } = await rememberedOnB();
    const start = (await stored(id))?.version as number;
    const before = await counts(site);
    const titles = Array.from({ length: 10 }, (_, i) => `t${i}`);
    const results = await Promise.all(
      titles.map((title, i) =>
        patchEntry(instanceB(), site, id, { fields: { title, count: i }, status: 'published' }),
      ),
    );
    for (const res of results) assert.equal(res.status, 200, JSON.stringify(res.body));
    const versions = results.map((r) => r.body.data.version as number).sort((x, y) => x - y);
    assert.deepEqual(
      versions,
      titles.map((_, i) => start + i + 1),
    );
    assert.equal((await stored(id))?.version, start + 10);
    assert.deepEqual(await counts(site), plus(before, 10));
  });

  it('an entry deleted on A since is 404 on B', async () => {
    const { site, id } = await rememberedOnB();
    await sql`delete from content_entries where id = ${id}`.execute(ctx.db);
    const res = await patchEntry(instanceB(), site, id, { fields: { title: 'ghost' }, status: 'published' });
    assert.equal(res.status, 404);
  });
});
