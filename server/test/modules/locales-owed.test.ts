import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describeEachDb } from '../helpers/app.js';
import { newSite, pageUrl, type Site, sync } from '../helpers/content.js';
import { call } from '../helpers/factories.js';
import { localizedSite as localizedSiteOf } from '../helpers/locales.js';
import { openLive } from '../helpers/sse.js';

/**
 * What contract §18 listed as still owed by §13, §14 and §17 (issue 44 items 1-4): GET /v1/pages
 * counts per locale, `?fallback=false` on a member's read of working copies, `problems` in every
 * locale on editor reads, and `locales[code].version` on a member's read.
 */

// Every statement the app sends, counted at the driver while `counting` (as bench/writes/statements.ts).
const seen: string[] = [];
let counting = false;
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) seen.push(typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text);
  return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;
{
  const memory = new Database(':memory:');
  const proto = Object.getPrototypeOf(memory.prepare('select 1'));
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const fn = proto[method];
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (counting) seen.push(this.source);
      return fn.apply(this, args);
    };
  }
  memory.close();
}

const LOCALES = {
  default: 'en',
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
};
const CARD = {
  componentId: 'Card',
  instanceKey: 'card',
  fields: [
    { key: 'title', type: 'text', localized: true, required: true },
    { key: 'body', type: 'text', localized: true },
    { key: 'color', type: 'text' },
  ],
};
const NOTE = { componentId: 'Note', instanceKey: 'note', fields: [{ key: 'text', type: 'text' }] };

type Fields = Record<string, unknown>;

describeEachDb('languages: what part three still owed', (ctx) => {
  let base = '';
  before(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await ctx.app.close();
  });

  const localizedSite = (components: unknown[] = [CARD, NOTE], pageId = '/') =>
    localizedSiteOf(ctx.app, LOCALES, components, pageId);

  const patch = async (site: Site, id: string, locale: string, payload: object) => {
    const res = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}?locale=${encodeURIComponent(locale)}`,
      headers: site.editing,
      payload,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  };
  const get = async (site: Site, url: string) => {
    const res = await call(ctx.app, { method: 'GET', url, headers: site.editing });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  };
  const listPages = (site: Site, query = '') => get(site, `/v1/pages${query}`);
  type Counts = { code: string; published: number; drafts: number };
  const localesOfPage = async (site: Site, pageId: string): Promise<Counts[] | undefined> =>
    ((await listPages(site)) as { pageId: string; locales?: Counts[] }[]).find((p) => p.pageId === pageId)
      ?.locales;

  it('GET /v1/pages counts each locale’s published copies and drafts, the default as the page', async () => {
    const { site, id } = await localizedSite();
    await sync(ctx.app, site, '@site', [NOTE]);
    const all = await listPages(site);
    assert.deepEqual(
      all.map((p: { pageId: string; locales: unknown }) => [p.pageId, p.locales]),
      [
        [
          '/',
          [
            { code: 'en', published: 0, drafts: 2 },
            { code: 'fr', published: 0, drafts: 2 },
            { code: 'fr-CA', published: 0, drafts: 2 },
          ],
        ],
        [
          '@site',
          [
            { code: 'en', published: 0, drafts: 1 },
            { code: 'fr', published: 0, drafts: 1 },
            { code: 'fr-CA', published: 0, drafts: 1 },
          ],
        ],
      ],
    );
    assert.deepEqual(Object.keys(all[0]), [
      'pageId',
      'shared',
      'components',
      'published',
      'drafts',
      'updatedAt',
      'locales',
    ]);

    // Published in fr only: fr counts it, en and fr-CA (which reads it through its fallback) do not.
    const fr = await patch(site, id, 'fr', { fields: { title: 'Bonjour' }, status: 'published' });
    assert.deepEqual(await localesOfPage(site, '/'), [
      { code: 'en', published: 0, drafts: 2 },
      { code: 'fr', published: 1, drafts: 1 },
      { code: 'fr-CA', published: 0, drafts: 2 },
    ]);
    const pages = await listPages(site);
    assert.equal(pages[0].updatedAt, fr.updatedAt, 'a translation published is a change of the page');

    // A French draft makes it a draft in fr again; so does a shared value changed from English.
    await patch(site, id, 'fr', { fields: { body: 'Texte' } });
    assert.deepEqual((await localesOfPage(site, '/'))?.[1], { code: 'fr', published: 1, drafts: 2 });
    await patch(site, id, 'fr', { status: 'published' });
    assert.deepEqual((await localesOfPage(site, '/'))?.[1], { code: 'fr', published: 1, drafts: 1 });
    await patch(site, id, 'en', { fields: { title: 'Hello', color: 'red' }, status: 'published' });
    assert.deepEqual(await localesOfPage(site, '/'), [
      { code: 'en', published: 1, drafts: 1 },
      { code: 'fr', published: 1, drafts: 2 },
      { code: 'fr-CA', published: 0, drafts: 2 },
    ]);

    // The list agrees with the entries' own statuses in each locale.
    const [card] = await get(site, `${pageUrl('/')}?locale=fr`);
    assert.equal(card.locales.fr.status, 'draft');
    assert.equal(card.locales.en.status, 'published');

    // Every locale at once: nothing is a draft anywhere; an unpublish in fr-CA counts there only.
    const bulk = await call(ctx.app, {
      method: 'POST',
      url: '/v1/content/bulk-publish',
      headers: site.editing,
      payload: { pageId: '/', locale: '*' },
    });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    assert.deepEqual(await localesOfPage(site, '/'), [
      { code: 'en', published: 2, drafts: 0 },
      { code: 'fr', published: 2, drafts: 0 },
      { code: 'fr-CA', published: 2, drafts: 0 },
    ]);
    const down = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/unpublish?locale=fr-CA`,
      headers: site.editing,
    });
    assert.equal(down.status, 200, JSON.stringify(down.body));
    assert.deepEqual(await localesOfPage(site, '/'), [
      { code: 'en', published: 2, drafts: 0 },
      { code: 'fr', published: 2, drafts: 0 },
      { code: 'fr-CA', published: 1, drafts: 1 },
    ]);
  });

  it('GET /v1/pages in a project without locales has no locales key', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [NOTE]);
    const [page] = await listPages(site);
    assert.deepEqual(Object.keys(page), [
      'pageId',
      'shared',
      'components',
      'published',
      'drafts',
      'updatedAt',
    ]);
  });

  it('GET /v1/pages with locales runs as many statements for six pages as for one', async () => {
    const { site } = await localizedSite();
    const count = async () => {
      await listPages(site); // warm: the session and the project's locales cached alike
      seen.length = 0;
      counting = true;
      try {
        await listPages(site);
      } finally {
        counting = false;
      }
      return [...seen];
    };
    const one = await count();
    for (const pageId of ['/a', '/b', '/c', '/d', '/e']) await sync(ctx.app, site, pageId, [CARD]);
    const six = await count();
    assert.equal(six.length, one.length, six.join('\n'));
    assert.equal(six.filter((s) => /entry_locales/.test(s)).length, 1, 'one grouped query of the locales');
  });

  it('?fallback=false on a member’s read gives the locale’s own working copy; fallbacks {}', async () => {
    const { site, id } = await localizedSite();
    await patch(site, id, 'en', { fields: { title: 'Hello', body: 'Read on', color: 'red' } });
    await patch(site, id, 'fr', { fields: { title: 'Bonjour' } });

    const [through] = await get(site, `${pageUrl('/')}?locale=fr-CA`);
    assert.deepEqual(through.fields, { title: 'Bonjour', body: 'Read on', color: 'red' });
    assert.deepEqual(through.fallbacks, { title: 'fr', body: 'en' });

    const [own] = await get(site, `${pageUrl('/')}?locale=fr-CA&fallback=false`);
    assert.deepEqual(own.fields, { color: 'red' });
    assert.deepEqual(own.fallbacks, {});
    const [frOwn] = await get(site, `${pageUrl('/')}?locale=fr&fallback=false`);
    assert.deepEqual(frOwn.fields, { title: 'Bonjour', color: 'red' });
    assert.deepEqual(frOwn.fallbacks, {});

    const entry = await get(site, `/v1/entries/${id}?locale=fr&fallback=false`);
    assert.deepEqual(entry.fields, { title: 'Bonjour', color: 'red' });
    assert.deepEqual(entry.fallbacks, {});
    const resolved = await get(site, `/v1/entries/${id}?locale=fr-CA&fallback=false&resolve=true`);
    assert.deepEqual(resolved.fields, { color: 'red' });
    assert.deepEqual(resolved.fallbacks, {});
    const [resolvedPage] = await get(site, `${pageUrl('/')}?locale=fr-CA&fallback=false&resolve=true`);
    assert.deepEqual(resolvedPage.fields, { color: 'red' });

    // A preview token's live stream of working copies reads the same way.
    const token = await call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers: site.editing });
    assert.equal(token.status, 201, JSON.stringify(token.body));
    const preview = { ...site.key, 'x-cms-preview': token.body.data.token as string };
    const stream = await openLive(base, '/', preview, '&locale=fr-CA&fallback=false');
    try {
      assert.equal(stream.status, 200);
      const first = JSON.parse((await stream.nextChange()).data);
      assert.deepEqual([first.fields, first.fallbacks], [{ color: 'red' }, {}]);
    } finally {
      stream.close();
    }

    // Without it, as before: through the chain.
    const filled = await get(site, `/v1/entries/${id}?locale=fr`);
    assert.deepEqual(filled.fields, { title: 'Bonjour', body: 'Read on', color: 'red' });
    assert.deepEqual(filled.fallbacks, { body: 'en' });
  });

  it('problems on editor reads cover every locale of the project, each with its locale', async () => {
    const { site, id } = await localizedSite([CARD]);
    const problemsOf = async (locale: string) =>
      ((await get(site, `${pageUrl('/')}?locale=${locale}`))[0] as { problems: Fields[] }).problems;
    // Nothing translated or published: the required title is missing in every locale.
    const everywhere = [
      { locale: 'en', path: 'fields.title', message: 'is required' },
      { locale: 'fr', path: 'fields.title', message: 'is required' },
      { locale: 'fr-CA', path: 'fields.title', message: 'is required' },
    ];
    assert.deepEqual(await problemsOf('en'), everywhere);
    assert.deepEqual(await problemsOf('fr-CA'), everywhere, 'whichever locale is read');

    // French has a title; English still lacks one, and fr-CA reads fr's only once it is published.
    const saved = await patch(site, id, 'fr', { fields: { title: 'Bonjour' } });
    assert.deepEqual(saved.problems, [everywhere[0], everywhere[2]], 'the PATCH answer too');
    await patch(site, id, 'fr', { status: 'published' });
    assert.deepEqual(await problemsOf('fr'), [everywhere[0]]);
    const entry = await get(site, `/v1/entries/${id}?locale=fr`);
    assert.deepEqual(entry.problems, [everywhere[0]]);

    // What the list says matches what a publish in each locale answers.
    const refused = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}?locale=en`,
      headers: site.editing,
      payload: { status: 'published' },
    });
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.body.error.details, [{ entryId: id, ...everywhere[0] }]);
    await patch(site, id, 'fr-CA', { status: 'published' });
  });

  it('a member’s read carries every locale’s version; the default’s is the entry’s own', async () => {
    const { site, id } = await localizedSite([CARD]);
    const versions = (e: { locales: Record<string, { version: number }> }) =>
      Object.fromEntries(Object.entries(e.locales).map(([code, l]) => [code, l.version]));
    const [start] = await get(site, pageUrl('/'));
    assert.deepEqual(versions(start), { en: start.version, fr: 1, 'fr-CA': 1 });
    assert.deepEqual(Object.keys(start.locales.en), ['status', 'publishedAt', 'version']);

    // A French edit moves fr's version only; a shared edit moves every locale's.
    const fr = await patch(site, id, 'fr', { fields: { title: 'Bonjour' } });
    assert.deepEqual(versions(fr), { en: start.version, fr: fr.version, 'fr-CA': 1 });
    assert.equal(fr.version, 2);
    const shared = await patch(site, id, 'en', { fields: { color: 'red' } });
    assert.deepEqual(versions(shared), { en: shared.version, fr: 3, 'fr-CA': 2 });

    // Each is the version an If-Match of that locale compares: read in en, write in fr-CA.
    const [en] = await get(site, pageUrl('/'));
    const stale = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}?locale=fr-CA`,
      headers: { ...site.editing, 'if-match': `"${en.locales['fr-CA'].version - 1}"` },
      payload: { fields: { title: 'Allô' } },
    });
    assert.equal(stale.status, 412);
    const fresh = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}?locale=fr-CA`,
      headers: { ...site.editing, 'if-match': `"${en.locales['fr-CA'].version}"` },
      payload: { fields: { title: 'Allô' } },
    });
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    const entry = await get(site, `/v1/entries/${id}`);
    assert.equal(entry.locales['fr-CA'].version, fresh.body.data.version);

    // Visitors' locales name the chain's published copies, without versions (their bytes as before).
    await patch(site, id, 'fr', { status: 'published' });
    const visitor = await call(ctx.app, {
      method: 'GET',
      url: `${pageUrl('/')}?locale=fr`,
      headers: site.key,
    });
    assert.deepEqual(Object.keys(visitor.body.data[0].locales.fr), ['status', 'publishedAt']);
  });
});
