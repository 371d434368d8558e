import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newSite, pageUrl, type Site, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { localizedSite as localizedSiteOf } from '../helpers/locales.js';

const LOCALES = {
  default: 'en',
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
};
const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    { key: 'title', type: 'text', localized: true, required: true },
    { key: 'body', type: 'text', localized: true },
    { key: 'color', type: 'text' },
  ],
};

interface LocalizedEntry {
  id: string;
  fields: Record<string, unknown>;
  status: string;
  version: number;
  locale: string;
  locales: Record<string, { status: string; publishedAt: string | null }>;
  fallbacks: Record<string, string>;
  problems: { locale: string | null; path: string; message: string }[];
}

/** Content in several languages, as editors write and read it (contract §14, §17). */
describeEachDb('content in locales (editor side)', (ctx) => {
  const localizedSite = () => localizedSiteOf(ctx.app, LOCALES, [HERO]);
  const patch = (site: Site, id: string, locale: string | null, payload: object, ifMatch?: number) =>
    call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}${locale ? `?locale=${encodeURIComponent(locale)}` : ''}`,
      headers: { ...site.editing, ...(ifMatch !== undefined && { 'if-match': `"${ifMatch}"` }) },
      payload,
    });
  const read = async (site: Site, locale: string | null): Promise<LocalizedEntry> => {
    const res = await call(ctx.app, {
      method: 'GET',
      url: `${pageUrl('/')}${locale ? `?locale=${encodeURIComponent(locale)}` : ''}`,
      headers: site.editing,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data[0];
  };

  it('writes localized keys per locale and shared keys once; reads fall back along the chain', async () => {
    const { site, id } = await localizedSite();
    const en = await patch(site, id, null, { fields: { title: 'Hello', body: 'Body', color: 'red' } });
    assert.equal(en.status, 200, JSON.stringify(en.body));
    assert.equal(en.body.data.locale, 'en');
    const fr = await patch(site, id, 'FR', { fields: { title: 'Bonjour', color: 'blue' } });
    assert.equal(fr.status, 200, JSON.stringify(fr.body));
    assert.equal(fr.body.data.locale, 'fr');
    assert.deepEqual(fr.body.data.fields, { title: 'Bonjour', body: 'Body', color: 'blue' });
    assert.deepEqual(fr.body.data.fallbacks, { body: 'en' });

    const english = await read(site, null);
    assert.deepEqual(
      english.fields,
      { title: 'Hello', body: 'Body', color: 'blue' },
      'the shared value is one',
    );
    assert.deepEqual(english.fallbacks, {});
    const canadian = await read(site, 'fr-ca');
    assert.equal(canadian.locale, 'fr-CA');
    assert.deepEqual(canadian.fields, { title: 'Bonjour', body: 'Body', color: 'blue' });
    assert.deepEqual(canadian.fallbacks, { title: 'fr', body: 'en' });
    assert.deepEqual(Object.keys(canadian.locales), ['en', 'fr', 'fr-CA']);

    // null removes fr's own value: it reads through the fallback again.
    const cleared = await patch(site, id, 'fr', { fields: { title: null } });
    assert.equal(cleared.body.data.fields.title, 'Hello');
    assert.deepEqual(cleared.body.data.fallbacks, { title: 'en', body: 'en' });
  });

  it('two translators never refuse each other; a shared field edited in both is the one conflict', async () => {
    const { site, id } = await localizedSite();
    const en = await read(site, 'en');
    const fr = await read(site, 'fr');
    const a = await patch(site, id, 'en', { fields: { title: 'Hello' } }, en.version);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    const b = await patch(site, id, 'fr', { fields: { title: 'Bonjour' } }, fr.version);
    assert.equal(b.status, 200, JSON.stringify(b.body));
    // A shared edit in fr moves every locale's version: en's next save with its old version is refused.
    const shared = await patch(site, id, 'fr', { fields: { color: 'green' } }, b.body.data.version);
    assert.equal(shared.status, 200, JSON.stringify(shared.body));
    const stale = await patch(site, id, 'en', { fields: { color: 'red' } }, a.body.data.version);
    assert.equal(stale.status, 412, JSON.stringify(stale.body));
    assert.equal((await read(site, 'en')).fields.color, 'green', 'nothing written');
  });

  it('publishes one locale at a time; rules read a missing translation through the fallback', async () => {
    const { site, id } = await localizedSite();
    // Nothing anywhere: fr's publish is refused, its problem carries the locale.
    const refused = await patch(site, id, 'fr', { status: 'published' });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(
      refused.body.error.details.map((d: { locale: string; path: string }) => [d.locale, d.path]),
      [['fr', 'fields.title']],
    );
    assert.equal(
      (await patch(site, id, 'en', { fields: { title: 'Hello', color: 'red' }, status: 'published' })).status,
      200,
    );
    // fr lacks a title of its own; en's published one counts (§17): fr publishes.
    const fr = await patch(site, id, 'fr', { fields: { body: 'Corps' }, status: 'published' });
    assert.equal(fr.status, 200, JSON.stringify(fr.body));
    // Visitors read the version fr's copy was published at: fr's version then (§17; en's publish above
    // changed a shared value, so it is more than fr's own count).
    const visitor = await call(ctx.app, {
      method: 'GET',
      url: `${pageUrl('/')}?locale=fr`,
      headers: site.key,
    });
    assert.equal(visitor.body.data[0].version, fr.body.data.version);
    assert.equal(fr.body.data.status, 'published');
    assert.deepEqual(fr.body.data.locales.en.status, 'published');
    assert.equal(fr.body.data.locales['fr-CA'].status, 'draft');

    // A shared edit goes live in no locale by itself.
    await patch(site, id, 'en', { fields: { color: 'blue' } });
    const after = await read(site, 'fr');
    assert.equal(after.status, 'draft');
    assert.equal(after.locales.en?.status, 'draft');
  });

  it('unpublishes one locale or every one; bulk-publish takes a locale or *', async () => {
    const { site, id } = await localizedSite();
    await patch(site, id, 'en', { fields: { title: 'Hello' } });
    await patch(site, id, 'fr', { fields: { title: 'Bonjour' } });
    const bulk = await call(ctx.app, {
      method: 'POST',
      url: '/v1/content/bulk-publish',
      headers: site.editing,
      payload: { pageId: '/', locale: '*' },
    });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    assert.deepEqual(bulk.body.data, { pageId: '/', published: [id], locales: ['en', 'fr', 'fr-CA'] });
    const all = await read(site, 'fr');
    assert.deepEqual(
      Object.values(all.locales).map((l) => l.status),
      ['published', 'published', 'published'],
    );
    const down = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/unpublish?locale=fr`,
      headers: site.editing,
    });
    assert.equal(down.status, 200, JSON.stringify(down.body));
    assert.equal(down.body.data.locales.fr.publishedAt, null);
    assert.equal(down.body.data.locales.en.status, 'published');
    const every = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/unpublish?locale=*`,
      headers: site.editing,
    });
    assert.deepEqual(
      Object.values(every.body.data.locales as LocalizedEntry['locales']).map((l) => l.publishedAt),
      [null, null, null],
    );
    const one = await call(ctx.app, {
      method: 'POST',
      url: '/v1/content/bulk-publish',
      headers: site.editing,
      payload: { pageId: '/', locale: 'fr' },
    });
    assert.deepEqual(one.body.data.locales, ['fr']);
    assert.equal((await read(site, 'en')).locales.en?.publishedAt, null, 'en stays down');

    // Events name their locales.
    const events = await ctx.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('projectId', '=', site.project.id)
      .orderBy('id')
      .execute();
    const last = JSON.parse(events.at(-1)?.data ?? '{}');
    assert.equal(events.at(-1)?.type, 'content.published');
    assert.deepEqual(last.locales, ['fr']);
    assert.equal(last.entries[0].locale, 'fr');
    assert.equal(last.entries[0].fields.title, 'Bonjour');
  });

  it('history records carry their locale; a restore writes into it only', async () => {
    const { site, id } = await localizedSite();
    await patch(site, id, 'en', { fields: { title: 'Hello', color: 'red' }, status: 'published' });
    await patch(site, id, 'fr', { fields: { title: 'Bonjour v1' }, status: 'published' });
    await patch(site, id, 'fr', { fields: { title: 'Bonjour v2' } });
    await patch(site, id, 'en', { fields: { title: 'Hello v2' } });
    const history = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history`,
      headers: site.editing,
    });
    assert.equal(history.status, 200);
    const frRecord = history.body.data.find((h: { locale: string }) => h.locale === 'fr');
    assert.deepEqual(frRecord.fields, { title: 'Bonjour v1', color: 'red' });
    const restored = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/history/${frRecord.id}/restore`,
      headers: site.editing,
    });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.data.locale, 'fr');
    assert.equal(restored.body.data.fields.title, 'Bonjour v1');
    assert.equal((await read(site, 'en')).fields.title, 'Hello v2', "en's own value stays");
  });

  it('refuses a locale the project lacks, a malformed tag, and any locale without locales (400), writing nothing', async () => {
    const { site, id } = await localizedSite();
    for (const locale of ['de', 'fr_FR', '*']) {
      const res = await patch(site, id, locale, { fields: { title: 'x' } });
      assert.equal(res.status, 400, `${locale}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.details[0].path, 'query.locale');
    }
    const bulk = await call(ctx.app, {
      method: 'POST',
      url: '/v1/content/bulk-publish',
      headers: site.editing,
      payload: { pageId: '/', locale: 'de' },
    });
    assert.equal(bulk.status, 400);
    assert.equal(bulk.body.error.details[0].path, 'body.locale');
    assert.equal((await read(site, 'en')).fields.title, undefined);

    const plain = await newSite(ctx.app);
    await sync(ctx.app, plain, '/', [HERO]);
    const entry = (await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: plain.editing })).body
      .data[0];
    assert.equal('locale' in entry, false, 'a project without locales answers as before');
    for (const url of [`${pageUrl('/')}?locale=en`, `/v1/entries/${entry.id}?locale=en`]) {
      const res = await call(ctx.app, { method: 'GET', url, headers: plain.editing });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.error.details[0].path, 'query.locale');
    }
    const unpublish = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${entry.id}/unpublish?locale=*`,
      headers: plain.editing,
    });
    assert.equal(unpublish.status, 400);
  });

  it('a removed locale hides its values; adding it back brings them back; null is refused while they exist', async () => {
    const { site, id } = await localizedSite();
    await patch(site, id, 'en', { fields: { title: 'Hello' } });
    await patch(site, id, 'fr', { fields: { title: 'Bonjour' } });
    const setLocales = (locales: unknown) =>
      call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${site.project.id}`,
        headers: bearer(site.admin.token),
        payload: { locales },
      });
    const off = await setLocales(null);
    assert.equal(off.status, 409, JSON.stringify(off.body));
    assert.match(off.body.error.message, /fr/);
    assert.equal((await setLocales({ default: 'en', available: [{ code: 'en' }] })).status, 200);
    const gone = await call(ctx.app, {
      method: 'GET',
      url: `${pageUrl('/')}?locale=fr`,
      headers: site.editing,
    });
    assert.equal(gone.status, 400, 'fr is no locale of the project now');
    assert.deepEqual(Object.keys((await read(site, null)).locales), ['en']);
    assert.equal((await setLocales(LOCALES)).status, 200);
    assert.equal((await read(site, 'fr')).fields.title, 'Bonjour');
  });

  it('flipping localized moves nothing: the default value is the shared one, other locales come back (§17)', async () => {
    const { site, id } = await localizedSite();
    await patch(site, id, 'en', { fields: { title: 'Hello' } });
    await patch(site, id, 'fr', { fields: { title: 'Bonjour' } });
    const memberSync = async (localized: boolean) => {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/definitions/sync',
        headers: { ...site.key, ...bearer(site.admin.token) },
        payload: {
          pageId: '/',
          components: [
            { ...HERO, fields: HERO.fields.map((f) => (f.key === 'title' ? { ...f, localized } : f)) },
          ],
        },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    await memberSync(false);
    const shared = await read(site, 'fr');
    assert.equal(shared.fields.title, 'Hello', "en's value became the shared one");
    assert.deepEqual(shared.fallbacks, {});
    await memberSync(true);
    assert.equal((await read(site, 'fr')).fields.title, 'Bonjour', "fr's own value came back");
    assert.equal((await read(site, 'en')).fields.title, 'Hello');
  });

  it('references: rows carry the locale of a localized value; a French published reference stops a delete', async () => {
    const { site } = await localizedSite();
    await sync(ctx.app, site, '@site', [
      { componentId: 'Quote', instanceKey: 'a', fields: [{ key: 'text', type: 'text' }] },
      { componentId: 'Quote', instanceKey: 'b', fields: [{ key: 'text', type: 'text' }] },
    ]);
    await sync(ctx.app, site, '/q', [
      {
        componentId: 'Card',
        instanceKey: 'card',
        fields: [
          { key: 'quote', type: 'reference', localized: true },
          { key: 'also', type: 'reference' },
        ],
      },
    ]);
    const list = async (pageId: string) =>
      (await call(ctx.app, { method: 'GET', url: pageUrl(pageId), headers: site.editing })).body.data as {
        id: string;
        instanceKey: string;
      }[];
    const quotes = await list('@site');
    const a = quotes.find((q) => q.instanceKey === 'a')?.id as string;
    const b = quotes.find((q) => q.instanceKey === 'b')?.id as string;
    const card = (await list('/q'))[0]?.id as string;
    assert.equal((await patch(site, card, 'en', { fields: { quote: a, also: b } })).status, 200);
    const fr = await patch(site, card, 'fr', { fields: { quote: b }, status: 'published' });
    assert.equal(fr.status, 200, JSON.stringify(fr.body));
    const refs = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${b}/references`,
      headers: site.editing,
    });
    assert.equal(refs.status, 200, JSON.stringify(refs.body));
    assert.deepEqual(
      refs.body.data.map((r: { copy: string; path: string; locale: string | null }) => [
        r.copy,
        r.path,
        r.locale,
      ]),
      [
        ['published', 'fields.also', null],
        ['published', 'fields.quote', 'fr'],
        ['working', 'fields.also', null],
        ['working', 'fields.quote', 'fr'],
      ],
    );
    // A member's ?copy=published read: the published copies as stored, reference ids and all (export).
    const stored = await call(ctx.app, {
      method: 'GET',
      url: `${pageUrl('/q')}?copy=published&locale=fr&fallback=false`,
      headers: site.editing,
    });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    assert.deepEqual(stored.body.data[0].fields, { quote: b, also: b });
    const english = await call(ctx.app, {
      method: 'GET',
      url: `${pageUrl('/q')}?copy=published`,
      headers: site.editing,
    });
    assert.deepEqual(english.body.data, [], 'nothing published in en');
    const visitor = await call(ctx.app, {
      method: 'GET',
      url: `${pageUrl('/q')}?locale=fr&copy=published`,
      headers: site.key,
    });
    assert.equal(
      typeof visitor.body.data[0].fields.quote,
      'object',
      'visitors read references resolved whatever copy says',
    );
    const del = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/content/${b}`,
      headers: { ...site.key, ...bearer(site.admin.token) },
    });
    assert.equal(del.status, 409, JSON.stringify(del.body));
  });
});
