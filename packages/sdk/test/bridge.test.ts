import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createFolio } from '../src/index.js';
import { dbKinds, newSite, type RunningFolio, type Site, startFolio, waitFor } from './harness/folio.js';
import { frameOf, launch, MARKS, type Origin, postToSite, received, startRig } from './harness/frames.js';

/**
 * The site's end of the visual-editing bridge (README, "Visual editing") in Chromium: an editor page on one origin
 * frames the site page on another, which loads the bundled SDK; a stranger on a third origin frames it
 * too. Folio is the real server.
 */
const pages = new URL('./pages/', import.meta.url).pathname;
const components = [
  { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' as const }] },
  { componentId: 'Cta', instanceKey: 'cta', fields: [{ key: 'label', type: 'text' as const }] },
  {
    componentId: 'Features',
    instanceKey: 'features',
    fields: [
      {
        key: 'items',
        type: 'list' as const,
        fields: [
          { key: 'title', type: 'text' as const },
          { key: 'body', type: 'text' as const },
        ],
      },
      { key: 'logos', type: 'list' as const, fields: [{ key: 'src', type: 'image' as const }] },
    ],
  },
];
const LOGOS = [
  { _key: 'logo-a', src: 'https://example.com/a.png' },
  { _key: 'logo-b', src: 'https://example.com/b.png' },
];
const FEATURES = [
  { _key: 'first-item', title: 'Fast', body: 'Ready in a second.' },
  { _key: 'second_item', title: 'Kind', body: 'Says what went wrong.' },
];

/** What pages/site.ts renders into: the Hero (with a link) and the Cta. */
const SITE_BODY = `<header id="hero"><h1 id="title">…</h1><p>Fresh every morning.</p>
<a id="more" href="/elsewhere">Read more</a></header><section id="cta"><p id="label"></p></section>
<ul id="features"></ul><ul id="logos"></ul>`;

interface Watched {
  listeners: string[];
  attributes: string[];
  sent: { path: string; preview: string | null }[];
  entries: Record<string, { fields: Record<string, unknown> }>;
}
const watched = <K extends keyof Watched>(frame: { evaluate: Page['evaluate'] }, key: K) =>
  frame.evaluate((name) => (window as unknown as Record<string, unknown>)[name], key) as Promise<Watched[K]>;

for (const kind of dbKinds()) {
  describe(`visual editing, the site's end [${kind}]`, () => {
    let folio: RunningFolio;
    let browser: Browser;
    let site: Site;
    let heroId: string;
    let editor: Origin;
    let stranger: Origin;
    let web: Origin;
    let siteUrl: string;
    let close: (() => Promise<void>) | undefined;

    before(async () => {
      folio = await startFolio(kind);
      site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/', components);
      await site.edit('/', 'hero', { title: 'Published title' });
      await site.edit('/', 'cta', { label: 'Order' });
      await site.edit('/', 'features', {
        items: FEATURES,
        logos: LOGOS,
      });
      await site.edit('/', 'hero', { title: 'Draft title' }, 'draft');
      heroId = await site.entryId('/', 'hero');
      ({ editor, stranger, web, siteUrl, close } = await startRig({
        entry: `${pages}site.ts`,
        body: SITE_BODY,
        folioUrl: folio.url,
        key: site.key,
      }));
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
      await close?.();
      await folio?.close();
    });

    async function open(host: Origin): Promise<Page> {
      const page = await browser.newPage();
      await page.goto(`${host.url}/frame`);
      return page;
    }

    it('outside a frame: no listener, no attribute, no mark, no bridge code loaded', async () => {
      const page = await browser.newPage();
      try {
        await page.goto(siteUrl);
        await page.getByText('Published title').waitFor();
        assert.deepEqual(await watched(page, 'listeners'), []);
        assert.deepEqual(await watched(page, 'attributes'), []);
        assert.doesNotMatch((await page.textContent('body')) ?? '', MARKS);
        assert.doesNotMatch(JSON.stringify(await watched(page, 'entries')), MARKS);
        assert.ok((await watched(page, 'sent')).every((request) => request.preview === null));
        // Only the main bundle: the bridge and session chunks stay on the server.
        assert.deepEqual(
          web.requests.filter((path) => path.startsWith('/app/')),
          ['/app/index.js'],
        );
      } finally {
        await page.close();
        web.requests.length = 0;
      }
    });

    it('framed by the editor: hello, then init reads drafts with the token; draft, click and highlight', async () => {
      const page = await open(editor);
      try {
        const frame = await frameOf(page, web.url);
        await waitFor(async () => (await received(page, 'hello')).length > 0, 10_000, 'hello');
        // hello: from the site's origin, naming the page; nothing loaded for a session yet.
        const [hello] = await received(page, 'hello');
        assert.deepEqual(hello, {
          origin: web.url,
          data: { folio: 'bridge', v: 1, type: 'hello', pageId: '/' },
        });
        await frame.getByText('Published title').waitFor();
        assert.ok(!web.requests.some((path) => path.includes('session')));

        const token = await site.previewToken();
        await postToSite(page, web.url, { type: 'init', previewToken: token, pageId: '/' });
        await waitFor(async () => (await received(page, 'ready')).length > 0, 10_000, 'ready');
        assert.ok(web.requests.some((path) => path.includes('session')));
        // The drafts, read with x-cms-preview (the page, and the live stream restarted with it).
        const title = frame.locator('#title');
        await waitFor(async () => clean(await title.textContent()) === 'Draft title', 10_000, 'the draft');
        const sent = await watched(frame, 'sent');
        assert.ok(sent.some((r) => r.path === '/v1/content/%2F' && r.preview === token));
        assert.ok(sent.some((r) => r.path === '/v1/live' && r.preview === token));
        // Text values now carry the hero's id, invisibly.
        assert.match((await title.textContent()) ?? '', MARKS);

        // An unsaved value: on the page at once, with no request.
        const before = (await watched(frame, 'sent')).length;
        await postToSite(page, web.url, {
          type: 'draft',
          entryId: heroId,
          fields: { title: 'Typed, not saved' },
        });
        await waitFor(
          async () => clean(await title.textContent()) === 'Typed, not saved',
          5000,
          'the overlay',
        );
        assert.equal((await watched(frame, 'sent')).length, before);

        // Hover outlines the Hero (CSSOM: the CSP allows no inline <style>); a click selects it and does
        // not follow its link.
        await frame.locator('#more').hover();
        await waitFor(
          async () => (await outlineOf(frame, '#hero')).includes('dashed'),
          5000,
          'the hover outline',
        );
        await frame.locator('#more').click();
        await waitFor(async () => (await received(page, 'select')).length > 0, 5000, 'select');
        assert.deepEqual((await received(page, 'select'))[0]?.data.entryId, heroId);
        assert.equal(new URL(frame.url()).pathname, '/');
        assert.ok(!web.requests.includes('/elsewhere'));
        // The form the editor has open: outlined until another is.
        const ctaId = await site.entryId('/', 'cta');
        await postToSite(page, web.url, { type: 'highlight', entryId: ctaId });
        await waitFor(async () => (await outlineOf(frame, '#cta')).includes('solid'), 5000, 'the highlight');
        await postToSite(page, web.url, { type: 'highlight', entryId: null });
        await waitFor(async () => !(await outlineOf(frame, '#cta')).includes('solid'), 5000, 'no highlight');

        // A save (anyone's) makes a newer version: it replaces the overlay.
        await site.edit('/', 'hero', { title: 'Saved by someone' }, 'draft');
        await waitFor(async () => clean(await title.textContent()) === 'Saved by someone', 5000, 'the save');
      } finally {
        await page.close();
        web.requests.length = 0;
      }
    });

    it('nested items: marked by _key, a click names the item and field, highlight outlines the item, drafts re-render it', async () => {
      const page = await open(editor);
      try {
        const frame = await frameOf(page, web.url);
        await waitFor(async () => (await received(page, 'hello')).length > 0, 10_000, 'hello');
        await postToSite(page, web.url, {
          type: 'init',
          previewToken: await site.previewToken(),
          pageId: '/',
        });
        await waitFor(async () => (await received(page, 'ready')).length > 0, 10_000, 'ready');
        const second = frame.locator('li[data-key="second_item"]');
        await waitFor(async () => MARKS.test((await second.textContent()) ?? ''), 10_000, 'marked items');
        // `_key` is never marked: the site keys its items by it.
        const keys = await frame
          .locator('#features li')
          .evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.key));
        assert.deepEqual(keys, ['first-item', 'second_item']);
        const featuresId = await site.entryId('/', 'features');

        // A click on an item's body names the item and the field, by _key; on the item itself (around its
        // texts), the item.
        await second.locator('p').click();
        await waitFor(async () => (await received(page, 'select')).length > 0, 5000, 'select');
        assert.deepEqual((await received(page, 'select'))[0]?.data, {
          folio: 'bridge',
          v: 1,
          type: 'select',
          entryId: featuresId,
          path: 'items[_key=second_item].body',
        });
        await second.dispatchEvent('click');
        await waitFor(async () => (await received(page, 'select')).length > 1, 5000, 'a second select');
        assert.equal((await received(page, 'select'))[1]?.data.path, 'items[_key=second_item]');
        // Hover outlines the item, not the whole list.
        await second.locator('h3').hover();
        await waitFor(
          async () => (await outlineOf(frame, 'li[data-key="second_item"]')).includes('dashed'),
          5000,
          'hover',
        );
        assert.ok(!(await outlineOf(frame, '#features')).includes('dashed'));

        // The editor is in the first item's title: that item is outlined.
        await postToSite(page, web.url, {
          type: 'highlight',
          entryId: featuresId,
          path: 'items[_key=first-item].title',
        });
        await waitFor(
          async () => (await outlineOf(frame, 'li[data-key="first-item"]')).includes('solid'),
          5000,
          'the item highlighted',
        );

        // Typing in a nested field, then a reorder: the page follows, each item keeps its marks by _key.
        await postToSite(page, web.url, {
          type: 'draft',
          entryId: featuresId,
          fields: { items: [FEATURES[1], { ...FEATURES[0], title: 'Faster' }], logos: LOGOS },
        });
        await waitFor(
          async () => clean(await frame.locator('#features li h3').first().textContent()) === 'Kind',
          5000,
          'the reorder',
        );
        const first = frame.locator('li[data-key="first-item"]');
        assert.equal(clean(await first.locator('h3').textContent()), 'Faster');
        await first.locator('h3').click();
        await waitFor(async () => (await received(page, 'select')).length > 2, 5000, 'a third select');
        assert.equal((await received(page, 'select'))[2]?.data.path, 'items[_key=first-item].title');
        // Still outlined after it moved: found by its key, not its place.
        assert.ok((await outlineOf(frame, 'li[data-key="first-item"]')).includes('solid'));

        // An item with no text of its own, marked by the site with editAttributes: found by it.
        const logo = frame.locator('li[data-key="logo-b"]');
        assert.equal(await logo.getAttribute('data-folio-place'), `${featuresId}:logos[_key=logo-b]`);
        await logo.locator('img').click();
        await waitFor(async () => (await received(page, 'select')).length > 3, 5000, 'a fourth select');
        assert.equal((await received(page, 'select'))[3]?.data.path, 'logos[_key=logo-b]');
      } finally {
        await page.close();
        web.requests.length = 0;
      }
    });

    it('an init from a stranger origin or from a sibling frame is ignored: no token, no session', async () => {
      const token = await site.previewToken();
      const strangerPage = await open(stranger);
      const editorPage = await open(editor);
      try {
        // The stranger frames the site and sends it an init: the SDK only listens to the editor origin.
        const strangerFrame = await frameOf(strangerPage, web.url);
        await postToSite(strangerPage, web.url, { type: 'init', previewToken: token, pageId: '/' });
        // In the editor's page, a sibling frame of the editor's own origin is not window.parent.
        const siteFrame = await frameOf(editorPage, web.url);
        const sibling = await frameOf(editorPage, `${editor.url}/blank`);
        await sibling.evaluate(
          ([origin, previewToken]) => {
            const target = window.parent.document.getElementById('site') as HTMLIFrameElement;
            target.contentWindow?.postMessage(
              { folio: 'bridge', v: 1, type: 'init', previewToken, pageId: '/' },
              origin,
            );
          },
          [web.url, token] as const,
        );
        // Without a valid init the SDK removes its listener after 10 s (an accepted one keeps it).
        for (const frame of [strangerFrame, siteFrame]) {
          await waitFor(
            async () => (await watched(frame, 'listeners')).includes('-message'),
            20_000,
            'the listener removed',
          );
          assert.deepEqual(await watched(frame, 'listeners'), ['+message', '-message']);
          assert.ok((await watched(frame, 'sent')).every((request) => request.preview === null));
          assert.doesNotMatch((await frame.textContent('body')) ?? '', MARKS);
        }
        assert.ok(!web.requests.some((path) => path.includes('session')));
        // The stranger never even got the hello: it was addressed to the editor origin.
        assert.deepEqual(await received(strangerPage, 'hello'), []);
        assert.ok((await received(editorPage, 'hello')).length > 0);
      } finally {
        await strangerPage.close();
        await editorPage.close();
        web.requests.length = 0;
      }
    });
  });
}

const clean = (text: string | null) => (text ?? '').replace(MARKS_ALL, '');
const MARKS_ALL = new RegExp(MARKS.source, 'g');

function outlineOf(frame: { evaluate: Page['evaluate'] }, selector: string): Promise<string> {
  return frame.evaluate((s) => {
    const element = document.querySelector(s) as HTMLElement;
    return `${element.style.outline} ${getComputedStyle(element).outlineStyle}`;
  }, selector);
}
