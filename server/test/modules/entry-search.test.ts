import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { HERO, newSite, patchEntry, type Site, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

const CARD = { componentId: 'Card', instanceKey: 'card', fields: [{ key: 'title', type: 'text' }] };

interface Summary {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  status: string;
  title: string | null;
}

/** Page ids that sort as their numbers do: /page-01 … /page-30. */
const page = (n: number) => `/page-${String(n).padStart(2, '0')}`;

describeEachDb('GET /v1/entries (the entry search of a reference picker)', (ctx) => {
  const find = (site: Site, query: string) =>
    call(ctx.app, { method: 'GET', url: `/v1/entries${query}`, headers: bearer(site.editor.token) });

  /** 30 pages of a Hero and a Card each, in a project beside another project with the same pages. */
  async function thirtyPages() {
    const site = await newSite(ctx.app);
    const other = await newSite(ctx.app, 'Other');
    for (let n = 1; n <= 30; n++) {
      await sync(ctx.app, site, page(n), [HERO, CARD]);
      if (n >= 24) await sync(ctx.app, other, page(n), [HERO, CARD]);
    }
    return { site, other };
  }

  it("finds an entry on page 25 of 30 by its page or instance key, filters by page and component, and never lists another project's", async () => {
    const { site, other } = await thirtyPages();
    const res = await find(site, '?q=PAGE-25');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const rows = res.body.data as Summary[];
    assert.deepEqual(
      rows.map((r) => [r.pageId, r.instanceKey, r.componentId, r.status, r.title]),
      [
        [page(25), 'card', 'Card', 'draft', null],
        [page(25), 'hero', 'Hero', 'draft', null],
      ],
    );
    assert.equal(res.body.meta, undefined);
    const card = rows[0]!;
    assert.match(card.id, /^ent_/);

    // The page and component filters, and q on a component id.
    const byPage = await find(site, `?pageId=${encodeURIComponent(page(25))}&componentId=Card`);
    assert.deepEqual(
      byPage.body.data.map((r: Summary) => r.id),
      [card.id],
    );
    const cards = await find(site, '?q=CARD&limit=100');
    assert.equal(cards.body.data.length, 30);
    assert.ok(cards.body.data.every((r: Summary) => r.componentId === 'Card'));

    // Named by id: the chosen references' labels; another project's id is never listed.
    await patchEntry(ctx.app, site, card.id, { fields: { title: 'Late' }, status: 'published' });
    const foreign = (await find(other, '?q=page-25')).body.data[0] as Summary;
    const named = await find(site, `?ids=${card.id}&ids=${foreign.id}`);
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.deepEqual(
      named.body.data.map((r: Summary) => [r.id, r.pageId, r.componentId, r.status, r.title]),
      [[card.id, page(25), 'Card', 'published', 'Late']],
    );
    const everything = await find(site, '?limit=100');
    assert.equal(everything.body.data.length, 60);
    assert.ok(!everything.body.data.some((r: Summary) => r.id === foreign.id));
  });

  it('pages through with the cursor, and a bad cursor or bad parameters are 400', async () => {
    const { site } = await thirtyPages();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await find(site, `?q=hero&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      seen.push(...res.body.data.map((r: Summary) => r.pageId));
      cursor = res.body.meta?.nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      Array.from({ length: 30 }, (_, i) => page(i + 1)),
    );

    const bad: [string, string][] = [
      ['?limit=0', 'querystring.limit'],
      ['?limit=101', 'querystring.limit'],
      ['?limit=05', 'querystring.limit'],
      ['?limit=1e1', 'querystring.limit'],
      [`?q=${'x'.repeat(201)}`, 'querystring.q'],
      ['?cursor=nope', 'querystring.cursor'],
      [`?cursor=${Buffer.from('{"a":1}').toString('base64url')}`, 'querystring.cursor'],
      [`?ids=${Array.from({ length: 101 }, () => 'ent_x').join('&ids=')}`, 'querystring.ids'],
      ['?other=1', 'querystring'],
    ];
    for (const [query, path] of bad) {
      const res = await find(site, query);
      assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.ok(
        res.body.error.details.some((d: { path: string }) => d.path.startsWith(path)),
        `${query}: ${JSON.stringify(res.body.error.details)}`,
      );
    }
  });

  it('a visitor key alone is 401', async () => {
    const site = await newSite(ctx.app);
    const res = await call(ctx.app, { method: 'GET', url: '/v1/entries', headers: site.key });
    assert.equal(res.status, 401);
  });
});
