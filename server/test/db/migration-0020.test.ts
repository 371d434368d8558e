import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, heroEntry, newSite, patchEntry, visitorEntries } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

const NAME = '0020_locales';

/**
 * Migration 0020 (languages) on a database with content in it: nothing moves at `up` (an entry's row is
 * its default locale's slot), so every read is the same after it; the first `locales` setting makes that
 * content the default locale's; `down` keeps the default locale's content whole.
 */
describeEachDb('migration 0020 on a populated database', (ctx) => {
  it('keeps every entry, published copy, version and history across down and up', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site, '/');
    await heroEntry(ctx.app, site, '/about');
    assert.equal(
      (await patchEntry(ctx.app, site, id, { fields: { title: 'Hello' }, status: 'published' })).status,
      200,
    );
    assert.equal((await patchEntry(ctx.app, site, id, { fields: { title: 'Draft' } })).status, 200);
    const editor = await editorEntries(ctx.app, site, '/');
    const visitor = await visitorEntries(ctx.app, site, '/');

    for (;;) {
      const { results } = await migrateDown(ctx.db);
      assert.equal(results?.[0]?.status, 'Success');
      if (results![0]!.migrationName === NAME) break;
    }
    await assert.rejects(sql`select 1 from entry_locales`.execute(ctx.db));
    const rows = await sql<{ n: number }>`select count(*) as n from content_entries`.execute(ctx.db);
    assert.equal(Number(rows.rows[0]?.n), 2);
    await migrateToLatest(ctx.db);

    assert.deepEqual(await editorEntries(ctx.app, site, '/'), editor);
    assert.deepEqual(await visitorEntries(ctx.app, site, '/'), visitor);

    // The first setting of locales: the content is the default locale's, as it was.
    const set = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/projects/${site.project.id}`,
      headers: bearer(site.admin.token),
      payload: { locales: { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] } },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const after = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(
      after.map((e) => e.fields),
      editor.map((e) => e.fields),
    );

    // Down again with a French value written: the default locale's content is kept whole.
    // A member's sync flips `title` to localized (a publishable-key sync may not, §17).
    const flip = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: { ...site.key, ...bearer(site.admin.token) },
      payload: {
        pageId: '/',
        components: [
          {
            componentId: 'Hero',
            instanceKey: 'hero',
            fields: [{ key: 'title', type: 'text', localized: true }],
          },
        ],
      },
    });
    assert.equal(flip.status, 200, JSON.stringify(flip.body));
    const fr = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}?locale=fr`,
      headers: site.editing,
      payload: { fields: { title: 'Bonjour' }, status: 'published' },
    });
    assert.equal(fr.status, 200, JSON.stringify(fr.body));
    for (;;) {
      const { results } = await migrateDown(ctx.db);
      assert.equal(results?.[0]?.status, 'Success');
      if (results![0]!.migrationName === NAME) break;
    }
    const kept = await sql<{ fields: string; publishedFields: string }>`
      select fields, published_fields from content_entries where id = ${id}`.execute(ctx.db);
    assert.deepEqual(JSON.parse(kept.rows[0]?.fields ?? '{}'), { title: 'Draft' });
    assert.deepEqual(JSON.parse(kept.rows[0]?.publishedFields ?? '{}'), { title: 'Hello' });
    await migrateToLatest(ctx.db);
  });
});
