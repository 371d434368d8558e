import type { Frame, Locator, Page } from '@playwright/test';
import { expect, HANDS, type Hand, screenshot, signIn, tabTo, test } from './support/fixtures';
import {
  api,
  type EntryData,
  entryOf,
  folioForThisFile,
  newSite,
  patchEntry,
  syncPage,
} from './support/folio';
import { startPreviewSite } from './support/preview-site';

/**
 * Issue 44 item 7: the preview shows the language the editor edits, and only that language's unsaved
 * typing. Typed in French, then English chosen: the pane reloads in English, and the bridge (which
 * sends every draft it holds when the site says `ready`) names each draft's locale, so the English
 * page does not show the French text. Back in French, the French typing shows again. The site is
 * test/support/preview-site.ts, which applies drafts as @folio/sdk's session does (one of another
 * locale is ignored; the SDK's own end is tested in packages/sdk/test/bridge-locales.test.ts).
 */
const folio = folioForThisFile();

const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [{ key: 'title', type: 'text', label: 'Title', localized: true }],
};

/** Picks a language: by mouse, or focused by Tab and moved with the arrow keys. */
async function chooseLanguage(page: Page, code: string, hand: Hand) {
  const select = page.getByLabel('Language', { exact: true });
  if (hand === 'mouse') return select.selectOption(code);
  await tabTo(page, select);
  const values = await select.evaluate((el) => [...(el as HTMLSelectElement).options].map((o) => o.value));
  const from = values.indexOf(await select.inputValue());
  const to = values.indexOf(code);
  for (let i = from; i !== to; i += to > from ? 1 : -1)
    await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  await expect(select).toHaveValue(code);
}

type Received = { type: string; [key: string]: unknown }[];
function paneFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f !== page.mainFrame());
  if (!frame) throw new Error('no preview frame');
  return frame;
}
const drafts = async (page: Page) =>
  (await paneFrame(page).evaluate(() => (window as unknown as { received: Received }).received)).filter(
    (m) => m.type === 'draft',
  );

async function typeAtEnd(page: Page, field: Locator, text: string, hand: Hand) {
  if (hand === 'mouse') await field.click();
  else await tabTo(page, field);
  await page.keyboard.press('End');
  await page.keyboard.type(text);
}

for (const hand of HANDS) {
  test(`by ${hand}: French typing, then English: the English preview shows the English text`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', [HERO]);
    await api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
      token: site.admin.token,
      headers: { 'x-cms-project-id': site.projectId },
      body: { locales: { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] } },
    });
    const entry = await entryOf(folio(), site, '/', 'hero');
    await patchEntry(folio(), site, site.admin.token, entry.id, { fields: { title: 'Fresh bread' } });
    await api(folio(), 'PATCH', `/v1/content/${entry.id}?locale=fr`, {
      token: site.admin.token,
      key: site.apiKey,
      body: { fields: { title: 'Pain frais' } },
    });
    const siteServer = await startPreviewSite(folio().url, site.apiKey);
    try {
      await api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
        token: site.admin.token,
        headers: { 'x-cms-project-id': site.projectId },
        body: { previewUrl: `${siteServer.origin}/site{pageId}?locale={locale}` },
      });
      await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
      await signIn(page, site.admin.email);
      const iframe = page.getByTitle('Preview of /');
      const status = page.getByRole('complementary', { name: 'Preview' }).getByRole('status');
      const frame = page.frameLocator('iframe[title="Preview of /"]');
      const hero = page.getByRole('region', { name: 'hero' });
      const title = hero.getByRole('textbox', { name: 'Title', exact: true });

      await chooseLanguage(page, 'fr', hand);
      await expect(iframe).toHaveAttribute('src', `${siteServer.origin}/site/?locale=fr`);
      await expect(status).toContainText('Connected');
      await expect(frame.getByRole('heading', { name: 'Pain frais', exact: true })).toBeVisible();
      await typeAtEnd(page, title, ' chaud', hand);
      await expect(frame.getByRole('heading', { name: 'Pain frais chaud', exact: true })).toBeVisible();

      // English: the pane reloads in English; the French draft is sent again with its locale, and
      // the English page does not show it.
      await chooseLanguage(page, 'en', hand);
      await expect(iframe).toHaveAttribute('src', `${siteServer.origin}/site/?locale=en`);
      await expect(status).toContainText('Connected');
      await expect(title).toHaveValue('Fresh bread');
      // Once the French draft has reached the English page (sent again on `ready`), it shows English.
      await expect.poll(async () => (await drafts(page)).length).toBe(1);
      await expect(frame.getByRole('heading', { level: 2 })).toHaveText(['Fresh bread']);
      expect((await drafts(page))[0]).toMatchObject({ entryId: entry.id, locale: 'fr' });
      await screenshot(page, `preview-locales-en-${hand}`);

      // Typing in English shows in the English page, and only there.
      await typeAtEnd(page, title, ' daily', hand);
      await expect(frame.getByRole('heading', { level: 2 })).toHaveText(['Fresh bread daily']);
      expect((await drafts(page)).at(-1)).toMatchObject({ entryId: entry.id, locale: 'en' });

      // Back to French: the French typing is still there, in the form and in the page.
      await chooseLanguage(page, 'fr', hand);
      await expect(iframe).toHaveAttribute('src', `${siteServer.origin}/site/?locale=fr`);
      await expect(status).toContainText('Connected');
      await expect(title).toHaveValue('Pain frais chaud');
      await expect(frame.getByRole('heading', { level: 2 })).toHaveText(['Pain frais chaud']);

      // Nothing was saved.
      const read = (locale: string) =>
        api<EntryData[]>(folio(), 'GET', `/v1/content/${encodeURIComponent('/')}?locale=${locale}`, {
          key: site.apiKey,
          token: site.admin.token,
        });
      expect((await read('fr'))[0]?.fields.title).toBe('Pain frais');
      expect((await read('en'))[0]?.fields.title).toBe('Fresh bread');
    } finally {
      await siteServer.close();
    }
  });
}
