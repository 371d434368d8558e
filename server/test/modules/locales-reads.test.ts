import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { canonicalJson } from '../../src/shared/canonical.js';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, pageUrl, type Site, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { caughtUp, eventually } from '../helpers/instances.js';
import { localizedSite as localizedSiteOf, setLocales as setLocalesOf } from '../helpers/locales.js';
import { openLive } from '../helpers/sse.js';

/**
 * Languages, the visitor side (contract §14, §17): content reads, snapshots and live streams in a
 * locale, through its fallback chain, and the caches that serve them (a publish in a locale changes
 * the reads of the locales whose chain passes through it, and no other).
 */
const LOCALES = {
  default: 'en',
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
};

const CARD = {
  componentId: 'Card',
  instanceKey: 'card',
  fields: [
    { key: 'title', type: 'text', localized: true },
    { key: 'body', type: 'text', localized: true },
    { key: 'count', type: 'number' },
  ],
};

type Fields = Record<string, unknown>;

describeEachDb('languages: visitor reads', (ctx) => {
  let base = '';
  before(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await ctx.app.close();
  });

  const setLocales = (site: Site, locales: unknown) => setLocalesOf(ctx.app, site, locales);

  /** A site in en, fr and fr-CA (fr-CA → fr → en) with one Card on `/`. */
  const localizedSite = (components: unknown[] = [CARD], pageId = '/') =>
    localizedSiteOf(ctx.app, LOCALES, components, pageId);

  const read = (app: FastifyInstance, site: Site, pageId: string, query = '', headers: Fields = {}) =>
    call(app, { method: 'GET', url: `${pageUrl(pageId)}${query}`, headers: { ...site.key, ...headers } });

  /** Writes `fields` in `locale` and publishes that locale (the editor side: PATCH ?locale=). */
  async function publishIn(site: Site, id: string, locale: string, fields: Fields) {
    const res = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}?locale=${encodeURIComponent(locale)}`,
      headers: site.editing,
      payload: { fields, status: 'published' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  async function unpublishIn(site: Site, id: string, locale: string) {
    const res = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/unpublish?locale=${encodeURIComponent(locale)}`,
      headers: site.editing,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  const snapshot = (site: Site, query = '', headers: Fields = {}) =>
    call(ctx.app, { method: 'GET', url: `/v1/snapshot${query}`, headers: { ...site.key, ...headers } });

  it('a project without locales: entries as before (no locale, locales), its snapshot has no locale, and any ?locale= is 400', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [CARD]);
    const [entry] = await editorEntries(ctx.app, site, '/');
    await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${entry?.id}`,
      headers: site.editing,
      payload: { fields: { title: 'Hello', count: 1 }, status: 'published' },
    });
    const res = await read(ctx.app, site, '/');
    assert.equal(res.status, 200);
    const [visible] = res.body.data;
    assert.deepEqual(visible.fields, { count: 1, title: 'Hello' });
    // The keys as before: locale and locales are left out (byte for byte as before languages).
    assert.deepEqual(Object.keys(visible), [
      'id',
      'pageId',
      'instanceKey',
      'componentId',
      'fields',
      'status',
      'publishedAt',
      'updatedAt',
      'version',
    ]);
    const snap = await snapshot(site);
    assert.equal(snap.status, 200);
    assert.equal('locale' in snap.body.data, false);
    assert.equal(snap.body.data.schema, 1);
    for (const [url, r] of [
      ['content', await read(ctx.app, site, '/', '?locale=en')],
      ['snapshot', await snapshot(site, '?locale=en')],
      ['snapshot *', await snapshot(site, '?locale=*')],
    ] as const) {
      assert.equal(r.status, 400, url);
      assert.equal(r.body.error.code, 'validation_failed', url);
      assert.equal(r.body.error.details[0].path, 'query.locale', url);
    }
    const live = await openLive(base, '/', site.key, '&locale=en');
    assert.equal(live.status, 400);
    assert.equal(live.body.error.details[0].path, 'query.locale');
  });

  it('a code the project lacks is 400 at query.locale on content, snapshot and live; codes match case-insensitively', async () => {
    const { site, id } = await localizedSite();
    await publishIn(site, id, 'en', { title: 'Hello', count: 2 });
    for (const r of [
      await read(ctx.app, site, '/', '?locale=de'),
      await read(ctx.app, site, '/', '?locale=*'),
      await read(ctx.app, site, '/', '?locale=en_US'),
      await snapshot(site, '?locale=de'),
    ]) {
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.details[0].path, 'query.locale');
    }
    const live = await openLive(base, '/', site.key, '&locale=de');
    assert.equal(live.status, 400);
    const lower = await read(ctx.app, site, '/', '?locale=FR-ca');
    assert.equal(lower.status, 200);
    assert.equal(lower.body.data[0].locale, 'fr-CA');
  });

  it('the default locale: a plain read is ?locale=<default>, each entry carrying locale and the chain it read', async () => {
    const { site, id } = await localizedSite();
    await publishIn(site, id, 'en', { title: 'Hello', body: 'Body', count: 2 });
    const plain = await read(ctx.app, site, '/');
    const en = await read(ctx.app, site, '/', '?locale=en');
    assert.equal(plain.status, 200);
    assert.deepEqual(plain.body, en.body);
    assert.equal(plain.headers.etag, en.headers.etag);
    const [entry] = plain.body.data;
    assert.equal(entry.locale, 'en');
    assert.deepEqual(Object.keys(entry.locales), ['en']);
    assert.equal(entry.locales.en.status, 'published');
    assert.equal(entry.locales.en.publishedAt, entry.publishedAt);
    assert.deepEqual(entry.fields, { body: 'Body', count: 2, title: 'Hello' });
  });

  it('reads through the fallback chain: localized values from the first copy holding them, shared values from the copy served', async () => {
    const { site, id } = await localizedSite();
    await publishIn(site, id, 'en', { title: 'Hello', body: 'Body', count: 1 });
    await publishIn(site, id, 'fr', { title: 'Bonjour' });
    const frCa = (await read(ctx.app, site, '/', '?locale=fr-CA')).body.data[0];
    assert.equal(frCa.locale, 'fr-CA');
    // title from fr, body from en (fr has none), count (shared) from fr's copy, the copy served.
    assert.deepEqual(frCa.fields, { body: 'Body', count: 1, title: 'Bonjour' });
    assert.deepEqual(Object.keys(frCa.locales), ['fr', 'en']);
    assert.equal(frCa.publishedAt, frCa.locales.fr.publishedAt);
    assert.equal(frCa.status, 'published');
    // A shared edit published in en only: fr still serves the shared value of its own publish.
    await publishIn(site, id, 'en', { count: 5 });
    assert.equal((await read(ctx.app, site, '/', '?locale=fr')).body.data[0].fields.count, 1);
    assert.equal((await read(ctx.app, site, '/', '?locale=en')).body.data[0].fields.count, 5);

    // ?fallback=false: the locale's own copies only.
    const own = await read(ctx.app, site, '/', '?locale=fr&fallback=false');
    assert.deepEqual(own.body.data[0].fields, { count: 1, title: 'Bonjour' });
    assert.deepEqual(Object.keys(own.body.data[0].locales), ['fr']);
    assert.deepEqual((await read(ctx.app, site, '/', '?locale=fr-CA&fallback=false')).body.data, []);
  });

  it('a publish in fr changes fr and fr-CA reads and not en’s; so does an unpublish in fr', async () => {
    const { site, id } = await localizedSite();
    await publishIn(site, id, 'en', { title: 'Hello', count: 1 });
    await publishIn(site, id, 'fr', { title: 'Bonjour' });
    const etags = async () =>
      Object.fromEntries(
        await Promise.all(
          ['en', 'fr', 'fr-CA'].map(
            async (l) => [l, (await read(ctx.app, site, '/', `?locale=${l}`)).headers.etag] as const,
          ),
        ),
      );
    const before = await etags();
    assert.deepEqual(await etags(), before); // cached: the same answers
    // Proof that en stays cached: a change behind the server's back would show if its read were dropped.
    await sql`update content_entries set published_fields = '{"title":"sneaky"}' where id = ${id}`.execute(
      ctx.db,
    );
    await publishIn(site, id, 'fr', { title: 'Salut' });
    const afterPublish = await etags();
    assert.equal((await read(ctx.app, site, '/', '?locale=en')).body.data[0].fields.title, 'Hello');
    await sql`update content_entries set published_fields = fields where id = ${id}`.execute(ctx.db);
    assert.equal(afterPublish.en, before.en);
    assert.notEqual(afterPublish.fr, before.fr);
    assert.notEqual(afterPublish['fr-CA'], before['fr-CA']);
    assert.equal((await read(ctx.app, site, '/', '?locale=fr-CA')).body.data[0].fields.title, 'Salut');
    await unpublishIn(site, id, 'fr');
    const afterUnpublish = await etags();
    assert.equal(afterUnpublish.en, before.en);
    assert.notEqual(afterUnpublish.fr, afterPublish.fr);
    const frCa = (await read(ctx.app, site, '/', '?locale=fr-CA')).body.data[0];
    assert.equal(frCa.fields.title, 'Hello'); // served from en now
    assert.deepEqual(Object.keys(frCa.locales), ['en']);
  });

  it('a change of the project’s locales drops its cached reads at once', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [CARD]);
    const [entry] = await editorEntries(ctx.app, site, '/');
    await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${entry?.id}`,
      headers: site.editing,
      payload: { fields: { title: 'Hello' }, status: 'published' },
    });
    assert.equal('locale' in (await read(ctx.app, site, '/')).body.data[0], false); // cached without locales
    await setLocales(site, LOCALES);
    assert.equal((await read(ctx.app, site, '/')).body.data[0].locale, 'en');
    await publishIn(site, entry?.id as string, 'fr', { title: 'Bonjour' });
    assert.equal((await read(ctx.app, site, '/', '?locale=fr-CA')).body.data[0].fields.title, 'Bonjour');
    // fr-CA now falls back to en directly: its cached read goes.
    await setLocales(site, {
      default: 'en',
      available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'en' }],
    });
    assert.equal((await read(ctx.app, site, '/', '?locale=fr-CA')).body.data[0].fields.title, 'Hello');
  });

  it('references resolve in the reader’s locale, and a publish of the target in fr changes its referrers’ fr reads only', async () => {
    const site = await newSite(ctx.app);
    await setLocales(site, LOCALES);
    await sync(ctx.app, site, '@site', [CARD]);
    const [target] = await editorEntries(ctx.app, site, '@site');
    await sync(ctx.app, site, '/', [
      {
        componentId: 'Pick',
        instanceKey: 'pick',
        fields: [{ key: 'card', type: 'reference', componentIds: ['Card'] }],
      },
    ]);
    const [pick] = await editorEntries(ctx.app, site, '/');
    await publishIn(site, target?.id as string, 'en', { title: 'Hello' });
    await publishIn(site, target?.id as string, 'fr', { title: 'Bonjour' });
    await publishIn(site, pick?.id as string, 'en', { card: target?.id });
    const titleIn = async (locale: string) => {
      const res = await read(ctx.app, site, '/', `?locale=${locale}`);
      return { title: res.body.data[0].fields.card?.fields?.title, etag: res.headers.etag };
    };
    const en = await titleIn('en');
    assert.equal(en.title, 'Hello');
    assert.equal((await titleIn('fr')).title, 'Bonjour'); // the referrer is served from en, its target in fr
    assert.equal((await titleIn('fr-CA')).title, 'Bonjour');
    await publishIn(site, target?.id as string, 'fr', { title: 'Salut' });
    assert.equal((await titleIn('fr-CA')).title, 'Salut');
    assert.equal((await titleIn('en')).etag, en.etag);
  });

  it('a preview token reads working copies in the locale, references resolved in it, and its stream follows fr drafts', async () => {
    const site = await newSite(ctx.app);
    await setLocales(site, LOCALES);
    await sync(ctx.app, site, '@site', [CARD]);
    const [target] = await editorEntries(ctx.app, site, '@site');
    await sync(ctx.app, site, '/', [
      {
        componentId: 'Pick',
        instanceKey: 'pick',
        fields: [
          { key: 'card', type: 'reference', componentIds: ['Card'] },
          { key: 'label', type: 'text', localized: true },
        ],
      },
    ]);
    const [pick] = await editorEntries(ctx.app, site, '/');
    const save = async (id: string, locale: string, fields: Fields) => {
      const res = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/content/${id}?locale=${locale}`,
        headers: site.editing,
        payload: { fields },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    await save(target?.id as string, 'en', { title: 'Hello' });
    await save(target?.id as string, 'fr', { title: 'Bonjour' });
    await save(pick?.id as string, 'en', { card: target?.id, label: 'Read' });
    const token = await call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers: site.editing });
    assert.equal(token.status, 201, JSON.stringify(token.body));
    const preview = { 'x-cms-preview': token.body.data.token as string };
    const res = await read(ctx.app, site, '/', '?locale=fr-CA', preview);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [entry] = res.body.data;
    assert.equal(entry.locale, 'fr-CA');
    assert.equal(entry.fields.label, 'Read'); // from en's working copy
    assert.deepEqual(entry.fallbacks, { label: 'en' });
    assert.equal(entry.fields.card.fields.title, 'Bonjour'); // the target's fr working copy
    // Visitors see nothing: nothing is published.
    assert.deepEqual((await read(ctx.app, site, '/', '?locale=fr-CA')).body.data, []);
    const stream = await openLive(base, '/', { ...site.key, ...preview }, '&locale=fr');
    try {
      assert.equal(stream.status, 200);
      assert.equal(JSON.parse((await stream.nextChange()).data).locale, 'fr');
      await save(pick?.id as string, 'fr', { label: 'Lire' });
      assert.equal(JSON.parse((await stream.nextChange()).data).fields.label, 'Lire');
    } finally {
      stream.close();
    }
  });

  it('snapshots per locale and ?locale=*: each its own version, ETag and 304; the plain one is the default’s', async () => {
    const { site, id } = await localizedSite();
    await publishIn(site, id, 'en', { title: 'Hello', body: 'Body', count: 1 });
    await publishIn(site, id, 'fr', { title: 'Bonjour' });
    const plain = await snapshot(site);
    const en = await snapshot(site, '?locale=en');
    const fr = await snapshot(site, '?locale=fr');
    const frCa = await snapshot(site, '?locale=fr-CA');
    const all = await snapshot(site, '?locale=*');
    for (const r of [plain, en, fr, frCa, all]) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(plain.body.data.version, en.body.data.version);
    assert.equal(plain.body.data.locale, 'en');
    assert.equal(plain.body.data.schema, 1);
    assert.equal(fr.body.data.locale, 'fr');
    assert.deepEqual(fr.body.data.content['/'][0].fields, { body: 'Body', count: 1, title: 'Bonjour' });
    assert.deepEqual(frCa.body.data.content, fr.body.data.content);
    assert.notEqual(frCa.body.data.version, fr.body.data.version); // `locale` differs
    // The single-locale version: sha256 of the canonical JSON of everything but version and generatedAt.
    const { version, generatedAt: _g, ...rest } = fr.body.data;
    assert.equal(version, `sha256:${createHash('sha256').update(canonicalJson(rest)).digest('hex')}`);
    // `*`: schema 2, every locale's content, and its version from theirs (contract §17).
    const star = all.body.data;
    assert.equal(star.schema, 2);
    assert.equal(star.defaultLocale, 'en');
    assert.deepEqual(Object.keys(star.locales), ['en', 'fr', 'fr-CA']);
    assert.deepEqual(star.locales.fr, fr.body.data.content);
    const objects = {
      objectCollections: star.objectCollections,
      objectFields: star.objectFields,
      objectTypes: star.objectTypes,
    };
    const sha = (v: unknown) => `sha256:${createHash('sha256').update(canonicalJson(v)).digest('hex')}`;
    assert.equal(
      star.version,
      sha({
        defaultLocale: 'en',
        bakeEnabled: star.bakeEnabled,
        versions: { en: en.body.data.version, fr: fr.body.data.version, 'fr-CA': frCa.body.data.version },
        objects: sha(objects),
      }),
    );
    for (const [query, r] of [
      ['', plain],
      ['?locale=fr', fr],
      ['?locale=*', all],
    ] as const) {
      assert.equal(r.headers.etag, `"${r.body.data.version}"`);
      assert.equal((await snapshot(site, query, { 'if-none-match': r.headers.etag as string })).status, 304);
    }
    // A publish in fr: fr, fr-CA and * change, en does not.
    await publishIn(site, id, 'fr', { title: 'Salut' });
    assert.equal((await snapshot(site, '?locale=en')).body.data.version, en.body.data.version);
    assert.notEqual((await snapshot(site, '?locale=fr')).body.data.version, fr.body.data.version);
    assert.notEqual((await snapshot(site, '?locale=fr-CA')).body.data.version, frCa.body.data.version);
    assert.notEqual((await snapshot(site, '?locale=*')).body.data.version, star.version);
  });

  it('the fast path answers a locale’s cached read with the route’s bytes, and its 304s', async () => {
    const { site, id } = await localizedSite();
    await publishIn(site, id, 'en', { title: 'Hello' });
    await publishIn(site, id, 'fr', { title: 'Bonjour' });
    for (const query of ['?locale=fr', '?locale=fr-CA&fallback=false', '?locale=fr&fallback=true', '']) {
      const first = await fetch(`${base}${pageUrl('/')}${query}`, { headers: site.key });
      const body = await first.text();
      const fast = await fetch(`${base}${pageUrl('/')}${query}`, { headers: site.key });
      assert.equal(await fast.text(), body, query);
      assert.equal(fast.headers.get('etag'), first.headers.get('etag'));
      const routed = await ctx.app.inject({
        method: 'GET',
        url: `${pageUrl('/')}${query}`,
        headers: site.key,
      });
      assert.equal(routed.body, body, query);
      const revalidated = await fetch(`${base}${pageUrl('/')}${query}`, {
        headers: { ...site.key, 'if-none-match': first.headers.get('etag') as string },
      });
      assert.equal(revalidated.status, 304);
    }
    const all = await fetch(`${base}/v1/snapshot?locale=*`, { headers: site.key });
    await all.arrayBuffer();
    const again = await fetch(`${base}/v1/snapshot?locale=%2A`, {
      headers: { ...site.key, 'if-none-match': all.headers.get('etag') as string },
    });
    assert.equal(again.status, 304);
  });

  it('live: a publish in fr reaches the fr-CA stream and not the en one', async () => {
    const { site, id } = await localizedSite();
    await publishIn(site, id, 'en', { title: 'Hello' });
    const en = await openLive(base, '/', site.key, '&locale=en');
    const frCa = await openLive(base, '/', site.key, '&locale=fr-CA');
    try {
      assert.equal(en.status, 200);
      const first = JSON.parse((await frCa.nextChange()).data);
      assert.equal(first.fields.title, 'Hello');
      assert.equal(first.locale, 'fr-CA');
      await en.nextChange();
      await publishIn(site, id, 'fr', { title: 'Bonjour' });
      const next = JSON.parse((await frCa.nextChange()).data);
      assert.equal(next.fields.title, 'Bonjour');
      assert.deepEqual(Object.keys(next.locales), ['fr', 'en']);
      await en.quiet(300);
      // As GET shows it.
      const got = (await read(ctx.app, site, '/', '?locale=fr-CA')).body.data[0];
      assert.deepEqual(next, got);
    } finally {
      en.close();
      frCa.close();
    }
  });
});

// Two instances on one PostgreSQL database (test/modules/multi-instance.test.ts): B's cached reads
// follow publishes made through A, locale by locale.
describeEachDb('languages: two instances', (ctx) => {
  let b: FastifyInstance;
  let handleB: DatabaseHandle;
  before(async () => {
    if (ctx.kind !== 'postgres') return;
    handleB = await openDatabase(ctx.database.config);
    b = await buildApp({ config: ctx.config, database: handleB });
    await b.ready();
  });
  after(async () => {
    await b?.close();
    await handleB?.close();
  });

  it('a publish in fr on A changes fr and fr-CA reads on B within a second, and not en’s', async (t) => {
    if (ctx.kind !== 'postgres') return t.skip('SQLite runs one instance per file');
    const site = await newSite(ctx.app);
    const admin = bearer(site.admin.token);
    await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/projects/${site.project.id}`,
      headers: admin,
      payload: { locales: LOCALES },
    });
    await sync(ctx.app, site, '/', [CARD]);
    const [entry] = await editorEntries(ctx.app, site, '/');
    const id = entry?.id as string;
    const publish = async (locale: string, title: string) => {
      const res = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/content/${id}?locale=${locale}`,
        headers: site.editing,
        payload: { fields: { title }, status: 'published' },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    await publish('en', 'Hello');
    await publish('fr', 'Bonjour');
    await caughtUp(ctx.app, b, ctx.db);
    const onB = async (locale: string) => {
      const res = await call(b, {
        method: 'GET',
        url: `${pageUrl('/')}?locale=${locale}`,
        headers: site.key,
      });
      return { title: res.body.data[0]?.fields.title as string, etag: res.headers.etag as string };
    };
    const en = await onB('en');
    assert.equal((await onB('fr-CA')).title, 'Bonjour'); // B has cached en and fr-CA
    // Proof that B serves en from memory: a change behind every instance's back stays invisible there.
    await sql`update content_entries set published_fields = '{"title":"sneaky"}' where id = ${id}`.execute(
      ctx.db,
    );
    await publish('fr', 'Salut');
    assert.equal(
      (
        await eventually(
          () => onB('fr-CA'),
          (r) => r.title === 'Salut',
        )
      ).title,
      'Salut',
    );
    assert.equal((await onB('fr')).title, 'Salut');
    await caughtUp(ctx.app, b, ctx.db);
    assert.deepEqual(await onB('en'), en); // not dropped: still the cached answer
    // A change of the locales drops B's cached reads of the project: en reads the database again.
    await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/projects/${site.project.id}`,
      headers: admin,
      payload: { locales: { ...LOCALES, available: [...LOCALES.available, { code: 'de', fallback: 'en' }] } },
    });
    assert.equal(
      (
        await eventually(
          () => onB('en'),
          (r) => r.title === 'sneaky',
        )
      ).title,
      'sneaky',
    );
  });
});
