import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio, type Snapshot } from '@folio/sdk';
import { renderToString } from 'react-dom/server';
import {
  countingFetch,
  dbKinds,
  newSite,
  type RunningFolio,
  type Site,
  startFolio,
} from '../../sdk/test/harness/folio.js';
import { type FieldValues, FolioProvider, useFolio } from '../src/index.js';
import { Footer, Hero } from './components.js';

const definitions = [
  {
    componentId: 'Hero',
    instanceKey: 'hero',
    fields: [
      { key: 'title', type: 'text' as const },
      { key: 'price', type: 'number' as const },
      { key: 'onSale', type: 'boolean' as const },
    ],
  },
  { componentId: 'Footer', instanceKey: 'footer', fields: [{ key: 'note', type: 'richtext' as const }] },
];

// The declaration types the values: checked by `npm run typecheck`, which covers the tests.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const typed: Equal<
  FieldValues<{ t: 'text'; n: 'number'; b: 'boolean'; r: 'richtext'; u: 'url'; i: 'image'; j: 'json' }>,
  {
    readonly t: string | undefined;
    readonly n: number | undefined;
    readonly b: boolean | undefined;
    readonly r: string | undefined;
    readonly u: string | undefined;
    readonly i: string | undefined;
    readonly j: unknown;
  }
> = true;

function TypedUse() {
  const fields = useFolio('x', { componentId: 'X', fields: { price: 'number', title: 'text' } });
  const price: number | undefined = fields.price;
  // @ts-expect-error a number field is not a string
  const wrong: string | undefined = fields.price;
  // @ts-expect-error an undeclared field is not there
  void fields.subtitle;
  return <i>{String(price ?? wrong ?? '')}</i>;
}

for (const kind of dbKinds()) {
  describe(`server rendering with react-dom/server [${kind}]`, () => {
    let folio: RunningFolio;
    let site: Site;
    let snapshot: { data: Snapshot; error: null };
    before(async () => {
      folio = await startFolio(kind);
      site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/', definitions);
      await site.edit('/', 'hero', { title: 'Fresh coffee', price: 3.5, onSale: true });
      const response = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': site.key } });
      snapshot = JSON.parse(await response.text());
    });
    after(() => folio?.close());

    it('renders the published fields from a baked snapshot, with the server stopped', async () => {
      await folio.stop();
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, snapshot, fetch: wire.fetch });
      const html = renderToString(
        <FolioProvider folio={sdk} pageId="/">
          <Hero />
          <Footer />
        </FolioProvider>,
      );
      assert.equal(
        html,
        '<section><h1>Fresh coffee</h1><p>3.50 EUR</p><strong>On sale</strong></section><footer>…</footer>',
      );
      // Rendering on the server registers nothing (effects run in the browser) and reads nothing.
      assert.deepEqual(wire.requests, []);
      assert.equal(typed, true);
      assert.equal(
        renderToString(
          <FolioProvider folio={sdk} pageId="/">
            <TypedUse />
          </FolioProvider>,
        ),
        '<i></i>',
      );
    });
  });

  describe(`server rendering with prefetched entries [${kind}]`, () => {
    let folio: RunningFolio;
    before(async () => {
      folio = await startFolio(kind);
    });
    after(() => folio?.close());

    it('renders what a loader read ahead; unfilled fields fall back', async () => {
      const site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/menu', definitions);
      await site.edit('/menu', 'footer', { note: 'Open daily' });
      const sdk = createFolio({ url: folio.url, key: site.key });
      const entries = await sdk.page('/menu');
      const html = renderToString(
        <FolioProvider
          folio={createFolio({ url: folio.url, key: site.key })}
          pageId="/menu"
          entries={entries}
        >
          <Hero />
          <Footer />
        </FolioProvider>,
      );
      assert.equal(html, '<section><h1>Untitled</h1></section><footer>Open daily</footer>');
    });

    it('renders what the SDK already read for the page, without prefetching it by hand', async () => {
      const site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/', definitions);
      await site.edit('/', 'hero', { title: 'Read before' });
      const sdk = createFolio({ url: folio.url, key: site.key });
      await sdk.page('/');
      const html = renderToString(
        <FolioProvider folio={sdk} pageId="/">
          <Hero />
        </FolioProvider>,
      );
      assert.equal(html, '<section><h1>Read before</h1></section>');
    });
  });
}
