import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio } from '@folio/sdk';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import {
  countingFetch,
  dbKinds,
  newSite,
  ok,
  type RunningFolio,
  startFolio,
  waitFor,
} from '../../sdk/test/harness/folio.js';
import { FolioProvider } from '../src/index.js';
import { Footer, Hero } from './components.js';
import { installDom } from './dom.js';

for (const kind of dbKinds()) {
  describe(`in the browser: register on mount, read, follow live [${kind}]`, () => {
    let folio: RunningFolio;
    let removeDom: () => Promise<void>;
    let root: Root | undefined;
    let container: HTMLElement;
    before(async () => {
      folio = await startFolio(kind);
      removeDom = installDom();
    });
    after(async () => {
      await removeDom?.();
      await folio?.close();
    });

    function mount(node: React.ReactNode): void {
      container = document.createElement('div');
      document.body.appendChild(container);
      root = createRoot(container);
      root.render(node);
    }
    function unmount(): void {
      root?.unmount();
      root = undefined;
      container.remove();
    }

    it('registers every component of the page on mount in one request (StrictMode too), then shows its content', async () => {
      const site = await newSite(folio);
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      mount(
        <StrictMode>
          <FolioProvider folio={sdk} pageId="/">
            <Hero />
            <Footer />
          </FolioProvider>
        </StrictMode>,
      );
      try {
        await waitFor(() => wire.requests.some((r) => r.path === '/v1/definitions/sync'), 5000, 'the sync');
        await waitFor(() => container.innerHTML.includes('Untitled'), 5000, 'the first render');
        const definitions = ok(
          await site.admin.GET('/v1/definitions/{pageId}', { params: { path: { pageId: '/' } } }),
        );
        assert.deepEqual(
          definitions.data.map((d) => [
            d.instanceKey,
            d.componentId,
            d.fields.map((f) => `${f.key}:${f.type}`),
          ]),
          // In page order: Hero renders (and registers) before Footer.
          [
            ['hero', 'Hero', ['title:text', 'price:number', 'onSale:boolean']],
            ['footer', 'Footer', ['note:richtext']],
          ],
        );
        // The editor fills the stub that registering created; the next visit shows it.
        await site.edit('/', 'hero', { title: 'Welcome', price: 12 });
        unmount();
        mount(
          <FolioProvider folio={sdk} pageId="/">
            <Hero />
            <Footer />
          </FolioProvider>,
        );
        await waitFor(() => container.innerHTML.includes('Welcome'), 5000, 'the published title');
        assert.equal(
          container.innerHTML,
          '<section><h1>Welcome</h1><p>12.00 EUR</p></section><footer>…</footer>',
        );
        // One sync: StrictMode's second mount and the remount sent nothing new. The page was read on
        // each mount (StrictMode's two reads shared one request).
        assert.deepEqual(wire.requests.map((r) => `${r.method} ${r.path} ${r.status}`).sort(), [
          'GET /v1/content/%2F 200',
          'GET /v1/content/%2F 200',
          'POST /v1/definitions/sync 200',
        ]);

        // Mounted again with nothing changed: the read is answered 304, and the page shows at once
        // from what the SDK holds.
        unmount();
        mount(
          <FolioProvider folio={sdk} pageId="/">
            <Hero />
          </FolioProvider>,
        );
        await waitFor(() => wire.requests.length === 4, 5000, 'the revalidation');
        assert.equal(wire.requests[3]?.status, 304);
        assert.equal(container.innerHTML, '<section><h1>Welcome</h1><p>12.00 EUR</p></section>');
      } finally {
        unmount();
      }
    });

    it('with a preview token, shows drafts and follows the editor as they type', async () => {
      const site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/', [
        { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] },
      ]);
      const wire = countingFetch();
      const sdk = createFolio({
        url: folio.url,
        key: site.key,
        previewToken: await site.previewToken(),
        fetch: wire.fetch,
      });
      mount(
        <FolioProvider folio={sdk} pageId="/">
          <Hero />
        </FolioProvider>,
      );
      try {
        await waitFor(() => wire.requests.some((r) => r.path.startsWith('/v1/live')), 5000, 'the stream');
        await site.edit('/', 'hero', { title: 'Draft one' }, 'draft');
        await waitFor(() => container.textContent === 'Draft one', 1000, 'the draft, within 1 s');
        await site.edit('/', 'hero', { title: 'Draft two' }, 'draft');
        await waitFor(() => container.textContent === 'Draft two', 1000, 'the next draft');
      } finally {
        unmount();
      }
      // Unmounting stopped the stream: nothing more is asked.
      const count = wire.requests.length;
      await site.edit('/', 'hero', { title: 'After unmount' }, 'draft');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(wire.requests.length, count);
    });
  });
}
