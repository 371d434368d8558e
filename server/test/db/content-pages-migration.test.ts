import assert from 'node:assert/strict';
import { it } from 'node:test';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { describeEachDb } from '../helpers/app.js';
import { newSite, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

const TEXT = { componentId: 'Text', instanceKey: 'text', fields: [{ key: 'body', type: 'text' }] };

/** 0019_content_pages on a populated database: up copies every existing page in, down drops the table. */
describeEachDb('migration 0019_content_pages', (ctx) => {
  it('copies the pages of every project in, in code-unit order, and goes down and up again', async () => {
    const one = await newSite(ctx.app);
    const two = await newSite(ctx.app);
    for (const pageId of ['/b', '/A', '@site', '/\uff21', '/\u{1f600}'])
      await sync(ctx.app, one, pageId, [TEXT]);
    await sync(ctx.app, two, '/', [TEXT]);

    // Down to just before 0019 (past any later migration).
    const later = Object.keys(migrations).length - Object.keys(migrations).indexOf('0019_content_pages');
    for (let i = 0; i < later; i++) await migrateDown(ctx.db);
    await assert.rejects(ctx.db.selectFrom('contentPages').select('pageId').execute());
    // Written while the table is gone (as an older build would): a page with an entry and no definition.
    const now = new Date().toISOString();
    await ctx.db
      .insertInto('contentEntries')
      .values({
        id: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T9',
        projectId: one.project.id,
        pageId: '/entry-only',
        instanceKey: 'x',
        componentId: 'Text',
        fields: '{}',
        publishedFields: null,
        publishedAt: null,
        createdAt: now,
        updatedAt: now,
        publishedVersion: null,
      })
      .execute();

    await migrateToLatest(ctx.db);
    const list = async (token: string) => {
      const res = await call(ctx.app, { method: 'GET', url: '/v1/pages', headers: bearer(token) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((p: { pageId: string; shared: boolean }) => [p.pageId, p.shared]);
    };
    assert.deepEqual(await list(one.editor.token), [
      ['/A', false],
      ['/b', false],
      ['/entry-only', false],
      ['/\u{1f600}', false],
      ['/\uff21', false],
      ['@site', true],
    ]);
    assert.deepEqual(await list(two.editor.token), [['/', false]]);
    const search = await call(ctx.app, {
      method: 'GET',
      url: '/v1/pages?q=ENTRY',
      headers: bearer(one.editor.token),
    });
    assert.deepEqual(
      search.body.data.map((p: { pageId: string }) => p.pageId),
      ['/entry-only'],
    );
  });
});
