import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio } from '@folio/sdk';
import type { Browser, Page } from 'playwright-core';
import {
  dbKinds,
  newSite,
  type RunningFolio,
  type Site,
  startFolio,
  waitFor,
} from '../../sdk/test/harness/folio.js';
import {
  frameOf,
  launch,
  MARKS,
  postToSite,
  type Rig,
  received,
  startRig,
} from '../../sdk/test/harness/frames.js';

/**
 * A React site in the dashboard's preview pane (Chromium; an editor page on another origin frames it;
 * Folio is the real server): with no code beyond FolioProvider and useFolio, the page switches to
 * drafts when the editor hands over a token, re-renders on each unsaved value and on saves, and a
 * click on a component selects its entry.
 */
const entry = new URL('./pages/site.tsx', import.meta.url).pathname;
const sdkSource = new URL('../../sdk/src/index.ts', import.meta.url).pathname;
const unmarked = (text: string | null) => (text ?? '').replace(new RegExp(MARKS.source, 'g'), '');

for (const kind of dbKinds()) {
  describe(`visual editing with @folio/react [${kind}]`, () => {
    let folio: RunningFolio;
    let browser: Browser;
    let site: Site;
    let rig: Rig;

    before(async () => {
      folio = await startFolio(kind);
      site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/', [
        { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] },
      ]);
      await site.edit('/', 'hero', { title: 'Published title' });
      await site.edit('/', 'hero', { title: 'Draft title' }, 'draft');
      rig = await startRig({
        entry,
        body: '<div id="root"></div>',
        folioUrl: folio.url,
        key: site.key,
        alias: { '@folio/sdk': sdkSource },
      });
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
      await rig?.close();
      await folio?.close();
    });

    it('useFolio shows drafts after init, re-renders on draft and on saves; a click selects', async () => {
      const page: Page = await browser.newPage();
      try {
        await page.goto(`${rig.editor.url}/frame`);
        const frame = await frameOf(page, rig.web.url);
        const title = frame.locator('h1');
        await waitFor(async () => (await title.textContent()) === 'Published title', 10_000, 'the page');
        await waitFor(async () => (await received(page, 'hello')).length > 0, 10_000, 'hello');

        await postToSite(page, rig.web.url, {
          type: 'init',
          previewToken: await site.previewToken(),
          pageId: '/',
        });
        await waitFor(async () => unmarked(await title.textContent()) === 'Draft title', 10_000, 'the draft');
        assert.match((await title.textContent()) ?? '', MARKS);

        const heroId = await site.entryId('/', 'hero');
        const sent = () => frame.evaluate(() => (window as unknown as { sent: unknown[] }).sent.length);
        const before = await sent();
        await postToSite(page, rig.web.url, {
          type: 'draft',
          entryId: heroId,
          fields: { title: 'As typed' },
        });
        await waitFor(
          async () => unmarked(await title.textContent()) === 'As typed',
          5000,
          'the unsaved value',
        );
        assert.equal(await sent(), before);

        // Saved by anyone: the live stream, opened with the token handed over, brings it.
        await site.edit('/', 'hero', { title: 'Saved' }, 'draft');
        await waitFor(async () => unmarked(await title.textContent()) === 'Saved', 5000, 'the save');

        await title.click();
        await waitFor(async () => (await received(page, 'select')).length > 0, 5000, 'select');
        assert.equal((await received(page, 'select'))[0]?.data.entryId, heroId);
      } finally {
        await page.close();
      }
    });
  });
}
