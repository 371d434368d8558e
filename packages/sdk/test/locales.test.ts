import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { component, createFolio, type Entry, FolioError, type SnapshotAll, text } from '../src/index.js';
import {
  countingFetch,
  dbKinds,
  newSite,
  type RunningFolio,
  type Site,
  startFolio,
  waitFor,
} from './harness/folio.js';

/** `title` has a value per locale; `price` is shared by every locale (contract §14). */
const hero = component('Hero', { title: text({ localized: true }), price: text() });

/**
 * A site in en, fr (falls back to en) and fr-CA (falls back to fr): the hero published in en and fr,
 * nothing of fr-CA's own, and a French draft not yet published.
 */
async function frenchSite(folio: RunningFolio): Promise<Site> {
  const site = await newSite(folio);
  await site.setLocales({
    default: 'en',
    available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
  });
  // register is locale-free: the declarations are shared by every locale.
  await createFolio({ url: folio.url, key: site.key, locale: 'fr' }).register('/', [
    { ...hero, instanceKey: 'hero' },
  ]);
  await site.edit('/', 'hero', { title: 'Hello', price: '10 EUR' }, 'published', 'en');
  await site.edit('/', 'hero', { title: 'Bonjour' }, 'published', 'fr');
  await site.edit('/', 'hero', { title: 'Bonjour (brouillon)' }, 'draft', 'fr');
  return site;
}

const titles = (entries: readonly { fields: Record<string, unknown> }[]) =>
  entries.map((e) => e.fields.title);

for (const kind of dbKinds()) {
  describe(`languages: createFolio({ locale }) [${kind}]`, () => {
    let folio: RunningFolio;
    let site: Site;
    before(async () => {
      folio = await startFolio(kind);
      site = await frenchSite(folio);
    });
    after(() => folio?.close());

    it('reads the page in its locale, through the fallback chain, with ?locale= on the wire', async () => {
      const wire = countingFetch();
      const fr = createFolio({ url: folio.url, key: site.key, locale: 'fr', fetch: wire.fetch });
      const page = await fr.page('/');
      assert.deepEqual(
        page.map((e) => [e.fields, e.locale]),
        [[{ title: 'Bonjour', price: '10 EUR' }, 'fr']],
      );
      // fr-CA has nothing of its own: French through its chain; en is the default (nothing sent).
      assert.deepEqual(titles(await fr.page('/', { locale: 'fr-ca' })), ['Bonjour']);
      assert.deepEqual(titles(await createFolio({ url: folio.url, key: site.key }).page('/')), ['Hello']);
      assert.deepEqual(
        wire.requests.map((r) => r.path),
        ['/v1/content/%2F?locale=fr', '/v1/content/%2F?locale=fr-ca'],
      );
    });

    it('keeps each locale apart: peek, a second read revalidates (304) per locale', async () => {
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, locale: 'fr', fetch: wire.fetch });
      await sdk.page('/');
      await sdk.page('/', { locale: 'en' });
      assert.deepEqual(titles(sdk.peek('/') ?? []), ['Bonjour']);
      assert.deepEqual(titles(sdk.peek('/', 'en') ?? []), ['Hello']);
      assert.equal(sdk.peek('/', 'fr-CA'), undefined);
      await sdk.page('/');
      assert.deepEqual(
        wire.requests.map((r) => r.status),
        [200, 200, 304],
      );
    });

    it('a preview token reads the working copies of its locale', async () => {
      const sdk = createFolio({
        url: folio.url,
        key: site.key,
        locale: 'fr',
        previewToken: await site.previewToken(),
      });
      assert.deepEqual(titles(await sdk.page('/')), ['Bonjour (brouillon)']);
      assert.deepEqual(titles(await sdk.page('/', { locale: 'en' })), ['Hello']);
    });

    it('a code the project lacks is the API 400, at query.locale', async () => {
      const sdk = createFolio({ url: folio.url, key: site.key, locale: 'de' });
      await assert.rejects(
        sdk.page('/'),
        (e: unknown) => e instanceof FolioError && e.status === 400 && e.code === 'validation_failed',
      );
    });

    it('the snapshot of a locale, and the document of every locale', async () => {
      const sdk = createFolio({ url: folio.url, key: site.key, locale: 'fr-CA' });
      const one = await sdk.snapshot();
      assert.equal(one.locale, 'fr-CA');
      assert.equal(one.content['/']?.[0]?.fields.title, 'Bonjour');
      const all = await sdk.snapshot({ locale: '*' });
      assert.equal(all.schema, 2);
      assert.equal(all.defaultLocale, 'en');
      assert.deepEqual(Object.keys(all.locales).sort(), ['en', 'fr', 'fr-CA']);
      assert.equal(all.locales.en?.['/']?.[0]?.fields.title, 'Hello');
    });

    it('follows a page live in its locale: a publish in fr reaches fr and fr-CA streams, not en', async () => {
      const own = await frenchSite(folio);
      const sdk = createFolio({ url: folio.url, key: own.key, locale: 'fr' });
      const seen: Record<string, Entry[]> = { en: [], fr: [], 'fr-CA': [] };
      const stops = [
        sdk.live('/', (e) => seen.fr!.push(e)),
        sdk.live('/', (e) => seen['fr-CA']!.push(e), undefined, { locale: 'fr-CA' }),
        sdk.live('/', (e) => seen.en!.push(e), undefined, { locale: 'en' }),
      ];
      try {
        await waitFor(() => Object.values(seen).every((list) => list.length === 1), 5000, 'three streams');
        assert.deepEqual(
          Object.values(seen).map((list) => [list[0]?.locale, list[0]?.fields.title]),
          [
            ['en', 'Hello'],
            ['fr', 'Bonjour'],
            ['fr-CA', 'Bonjour'],
          ],
        );
        await own.edit('/', 'hero', { title: 'Salut' }, 'published', 'fr');
        await waitFor(() => seen.fr!.length === 2 && seen['fr-CA']!.length === 2, 2000, 'the French publish');
        assert.equal(seen.fr![1]?.fields.title, 'Salut');
        assert.equal(seen['fr-CA']![1]?.fields.title, 'Salut');
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(seen.en!.length, 1, 'an English reader is not told of a French publish');
      } finally {
        for (const stop of stops) stop();
      }
    });

    it('baked: the * document serves every locale without a request', async () => {
      const response = await fetch(`${folio.url}/v1/snapshot?locale=*`, {
        headers: { 'x-cms-key': site.key },
      });
      const file = (await response.json()) as { data: SnapshotAll; error: null };
      const wire = countingFetch();
      const sdk = createFolio({
        url: folio.url,
        key: site.key,
        snapshot: file,
        locale: 'fr',
        fetch: wire.fetch,
      });
      assert.equal(sdk.baked, true);
      assert.deepEqual(titles(await sdk.page('/')), ['Bonjour']);
      assert.deepEqual(titles(sdk.peek('/') ?? []), ['Bonjour']);
      assert.deepEqual(titles(await sdk.page('/', { locale: 'fr-ca' })), ['Bonjour']);
      assert.deepEqual(titles(await sdk.page('/', { locale: 'en' })), ['Hello']);
      const snapshot = await sdk.snapshot();
      assert.equal(snapshot.locale, 'fr');
      assert.equal(snapshot.version, file.data.version);
      assert.deepEqual(await sdk.snapshot({ locale: '*' }), file.data);
      // Without a locale: the default's.
      const plain = createFolio({ url: folio.url, key: site.key, snapshot: file, fetch: wire.fetch });
      assert.deepEqual(titles(await plain.page('/')), ['Hello']);
      await assert.rejects(
        sdk.page('/', { locale: 'de' }),
        (e: unknown) =>
          e instanceof FolioError && e.code === 'validation_failed' && /No locale "de"/.test(e.message),
      );
      assert.deepEqual(wire.requests, []);
    });

    it("baked: one locale's snapshot serves that locale only", async () => {
      const response = await fetch(`${folio.url}/v1/snapshot?locale=fr`, {
        headers: { 'x-cms-key': site.key },
      });
      const file = await response.json();
      const sdk = createFolio({ url: folio.url, key: site.key, snapshot: file, locale: 'fr' });
      assert.deepEqual(titles(await sdk.page('/')), ['Bonjour']);
      assert.equal((await sdk.snapshot()).locale, 'fr');
      await assert.rejects(sdk.page('/', { locale: 'en' }), /No locale "en"/);
      await assert.rejects(sdk.snapshot({ locale: '*' }), /No locale "\*"/);
      assert.equal(sdk.peek('/', 'en'), undefined);
    });
  });
}
