import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { component, createFolio, text } from '../src/index.js';
import { dbKinds, newSite, type RunningFolio, type Site, startFolio, waitFor } from './harness/folio.js';
import { frameOf, launch, MARKS, type Origin, postToSite, received, startRig } from './harness/frames.js';

/**
 * Visual editing in a project with locales (issue 44 item 7), the site's end in Chromium: the site page
 * reads English (createFolio's `locale`), and the dashboard sends the drafts of every locale it holds,
 * each naming its locale. The session shows only English ones; a draft that names no locale (an older
 * dashboard) shows as before.
 */
const pages = new URL('./pages/', import.meta.url).pathname;
const hero = component('Hero', { title: text({ localized: true }) });
const SITE_BODY = `<header id="hero"><h1 id="title">…</h1></header><section id="cta"><p id="label"></p></section>
<ul id="features"></ul><ul id="logos"></ul>`;
const MARKS_ALL = new RegExp(MARKS.source, 'g');
const clean = (value: string | null) => (value ?? '').replace(MARKS_ALL, '');

for (const kind of dbKinds()) {
  describe(`visual editing in one locale of several [${kind}]`, () => {
    let folio: RunningFolio;
    let browser: Browser;
    let site: Site;
    let heroId: string;
    let editor: Origin;
    let web: Origin;
    let close: (() => Promise<void>) | undefined;

    before(async () => {
      folio = await startFolio(kind);
      site = await newSite(folio);
      await site.setLocales({ default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] });
      await createFolio({ url: folio.url, key: site.key }).register('/', [{ ...hero, instanceKey: 'hero' }]);
      await site.edit('/', 'hero', { title: 'Fresh bread' }, 'draft', 'en');
      await site.edit('/', 'hero', { title: 'Pain frais' }, 'draft', 'fr');
      heroId = await site.entryId('/', 'hero');
      ({ editor, web, close } = await startRig({
        entry: `${pages}site.ts`,
        body: SITE_BODY,
        folioUrl: folio.url,
        key: site.key,
        locale: 'en',
      }));
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
      await close?.();
      await folio?.close();
    });

    it('a draft of another locale is ignored; one of the page locale, or naming none, shows', async () => {
      const page: Page = await browser.newPage();
      try {
        await page.goto(`${editor.url}/frame`);
        const frame = await frameOf(page, web.url);
        await waitFor(async () => (await received(page, 'hello')).length > 0, 10_000, 'hello');
        await postToSite(page, web.url, {
          type: 'init',
          previewToken: await site.previewToken(),
          pageId: '/',
        });
        await waitFor(async () => (await received(page, 'ready')).length > 0, 10_000, 'ready');
        const title = frame.locator('#title');
        await waitFor(async () => clean(await title.textContent()) === 'Fresh bread', 10_000, 'English');

        // French typing (sent again by the dashboard when the pane reloads in English): not shown.
        await postToSite(page, web.url, {
          type: 'draft',
          entryId: heroId,
          locale: 'fr',
          fields: { title: 'Pain frais chaud' },
        });
        // Messages are handled in order: once the highlight shows, the French draft was handled.
        await postToSite(page, web.url, { type: 'highlight', entryId: heroId });
        await waitFor(
          async () => (await frame.locator('#hero').evaluate((e) => (e as HTMLElement).style.outline)) !== '',
          5000,
          'the highlight',
        );
        assert.equal(clean(await title.textContent()), 'Fresh bread');

        // English typing shows (the code matched as the API matches it, case aside).
        await postToSite(page, web.url, {
          type: 'draft',
          entryId: heroId,
          locale: 'EN',
          fields: { title: 'Fresh bread daily' },
        });
        await waitFor(async () => clean(await title.textContent()) === 'Fresh bread daily', 5000, 'en draft');
        // A French draft after it leaves the English one in place.
        await postToSite(page, web.url, {
          type: 'draft',
          entryId: heroId,
          locale: 'fr',
          fields: { title: 'Pain frais chaud' },
        });
        await postToSite(page, web.url, { type: 'draft', entryId: 'ent_none', fields: {} });
        await postToSite(page, web.url, { type: 'highlight', entryId: null });
        await waitFor(
          async () => (await frame.locator('#hero').evaluate((e) => (e as HTMLElement).style.outline)) === '',
          5000,
          'no highlight',
        );
        assert.equal(clean(await title.textContent()), 'Fresh bread daily');

        // A dashboard that names no locale: its draft shows, as before.
        await postToSite(page, web.url, {
          type: 'draft',
          entryId: heroId,
          fields: { title: 'Any language' },
        });
        await waitFor(async () => clean(await title.textContent()) === 'Any language', 5000, 'no locale');
      } finally {
        await page.close();
      }
    });
  });
}
