import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio, type SnapshotAll, text } from '@folio/sdk';
import { createRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import {
  countingFetch,
  dbKinds,
  newSite,
  type RunningFolio,
  type Site,
  startFolio,
  waitFor,
} from '../../sdk/test/harness/folio.js';
import { FolioProvider, useFolio } from '../src/index.js';
import { installDom } from './dom.js';

/** A headline translated per locale (`localized`), a price shared by every locale. */
function Headline() {
  const { title, price } = useFolio('headline', {
    componentId: 'Headline',
    fields: { title: text({ localized: true }), price: text() },
  });
  return <h1>{`${title ?? 'Untitled'} | ${price ?? '-'}`}</h1>;
}

async function frenchSite(folio: RunningFolio): Promise<Site> {
  const site = await newSite(folio);
  await site.setLocales({ default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] });
  await createFolio({ url: folio.url, key: site.key }).register('/', [
    {
      componentId: 'Headline',
      instanceKey: 'headline',
      fields: { title: text({ localized: true }), price: text() },
    },
  ]);
  await site.edit('/', 'headline', { title: 'Hello', price: '10' }, 'published', 'en');
  await site.edit('/', 'headline', { title: 'Bonjour' }, 'published', 'fr');
  return site;
}

for (const kind of dbKinds()) {
  describe(`languages: <FolioProvider locale> [${kind}]`, () => {
    let folio: RunningFolio;
    let site: Site;
    let removeDom: () => Promise<void>;
    before(async () => {
      folio = await startFolio(kind);
      site = await frenchSite(folio);
      removeDom = installDom();
    });
    after(async () => {
      await removeDom?.();
      await folio?.close();
    });

    it('reads in the provider locale, and reads again when it changes', async () => {
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      const container = document.createElement('div');
      document.body.appendChild(container);
      const root: Root = createRoot(container);
      try {
        root.render(
          <FolioProvider folio={sdk} pageId="/" locale="fr">
            <Headline />
          </FolioProvider>,
        );
        await waitFor(() => container.innerHTML.includes('Bonjour | 10'), 5000, 'the French page');
        root.render(
          <FolioProvider folio={sdk} pageId="/" locale="en">
            <Headline />
          </FolioProvider>,
        );
        await waitFor(() => container.innerHTML.includes('Hello | 10'), 5000, 'the English page');
        const reads = wire.requests.filter((r) => r.path.startsWith('/v1/content/'));
        assert.deepEqual(
          reads.map((r) => r.path),
          ['/v1/content/%2F?locale=fr', '/v1/content/%2F?locale=en'],
        );
      } finally {
        root.unmount();
        container.remove();
      }
    });

    it('follows the page live in its locale (a preview shows French drafts as they are saved)', async () => {
      const sdk = createFolio({ url: folio.url, key: site.key, previewToken: await site.previewToken() });
      const container = document.createElement('div');
      document.body.appendChild(container);
      const root: Root = createRoot(container);
      try {
        root.render(
          <FolioProvider folio={sdk} pageId="/" locale="fr">
            <Headline />
          </FolioProvider>,
        );
        await waitFor(() => container.innerHTML.includes('Bonjour | 10'), 5000, 'the French page');
        await site.edit('/', 'headline', { title: 'Bonjour à tous' }, 'draft', 'fr');
        await waitFor(() => container.innerHTML.includes('Bonjour à tous | 10'), 2000, 'the French draft');
        await site.edit('/', 'headline', { title: 'Bonjour' }, 'draft', 'fr');
      } finally {
        root.unmount();
        container.remove();
      }
    });

    it('renders on the server from the baked * document, in each locale, without a request', async () => {
      const response = await fetch(`${folio.url}/v1/snapshot?locale=*`, {
        headers: { 'x-cms-key': site.key },
      });
      const file = (await response.json()) as { data: SnapshotAll; error: null };
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, snapshot: file, fetch: wire.fetch });
      const render = (locale?: string) =>
        renderToString(
          <FolioProvider folio={sdk} pageId="/" {...(locale && { locale })}>
            <Headline />
          </FolioProvider>,
        );
      assert.match(render('fr'), /Bonjour \| 10/);
      assert.match(render('en'), /Hello \| 10/);
      assert.match(render(), /Hello \| 10/);
      assert.deepEqual(wire.requests, []);
    });
  });
}
