import type { Locator, Page, Route } from '@playwright/test';
import { expect, HANDS, type Hand, press, screenshot, signIn, tabTo, test } from './support/fixtures';
import {
  api,
  type EntryData,
  entryOf,
  folioForThisFile,
  newSite,
  patchEntry,
  type Site,
  syncPage,
} from './support/folio';

/**
 * Issue 44 item 6: what is typed while a write is in flight is kept. The controls stay enabled during
 * a save, an unpublish or a removed translation; the write answers for what it sent, so the text typed
 * after the click stays in the field, under "unsaved changes" and in the unsaved-draft backup (a
 * reload restores it), until the next save sends it. Each write is held in the browser (page.route, the
 * request itself untouched) until the later text is typed, by mouse and by keyboard; what was stored is
 * read back through the API.
 */
const folio = folioForThisFile();

const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    { key: 'title', type: 'text', label: 'Title', localized: true },
    { key: 'subtitle', type: 'text', label: 'Subtitle', localized: true },
  ],
};

/**
 * Holds the next request to `path` (a suffix of its URL) with `method` until `release()`; `sent`
 * resolves once the browser has made it. The request then goes to Folio as it was.
 */
async function hold(page: Page, method: string, path: RegExp) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let sent!: () => void;
  const made = new Promise<void>((resolve) => {
    sent = resolve;
  });
  let held = false;
  const handler = async (route: Route) => {
    if (held || route.request().method() !== method) return route.fallback();
    held = true;
    sent();
    await released;
    await route.continue();
  };
  await page.route(path, handler);
  return { sent: made, release };
}

/** Puts the cursor at the end of `field` (a click, or Tab/Shift+Tab to it) and types `text`. */
async function typeAtEnd(page: Page, field: Locator, text: string, hand: Hand, back = false) {
  if (hand === 'mouse') await field.click();
  else await tabTo(page, field, { back });
  await page.keyboard.press('End');
  await page.keyboard.type(text);
}

const workingCopy = async (site: Site, locale?: string) => {
  const query = locale ? `?locale=${locale}` : '';
  const [hero] = await api<EntryData[]>(folio(), 'GET', `/v1/content/${encodeURIComponent('/')}${query}`, {
    key: site.apiKey,
    token: site.admin.token,
  });
  return hero!;
};

async function openPage(page: Page, site: Site) {
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
  await signIn(page, site.admin.email);
  return page.getByRole('region', { name: 'hero' });
}

for (const hand of HANDS) {
  test(`by ${hand}: text typed while a draft is saved stays in the field, unsaved, backed up, and the next save sends it`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', [HERO]);
    const hero = await openPage(page, site);
    const title = hero.getByRole('textbox', { name: 'Title', exact: true });
    const save = hero.getByRole('button', { name: 'Save draft' });
    const unsaved = hero.getByText('unsaved changes', { exact: true });

    await typeAtEnd(page, title, 'Harbour', hand);
    const patch = await hold(page, 'PATCH', /\/v1\/content\/ent_[^/?]+(\?.*)?$/);
    await press(page, save, hand);
    await patch.sent;
    // The save is on its way: the editor goes on typing, back in the field.
    await typeAtEnd(page, title, ' at night', hand, true);
    await expect(title).toHaveValue('Harbour at night');
    patch.release();
    await expect(page.getByText('hero: draft saved')).toBeVisible();

    // The save stored what it sent; what came after stays, pending.
    await expect(title).toHaveValue('Harbour at night');
    await expect(unsaved).toBeVisible();
    expect((await workingCopy(site)).fields.title).toBe('Harbour');
    await screenshot(page, `typing-during-save-${hand}`);

    // The unsaved-draft backup holds it too: a reload brings it back.
    await page.reload();
    await expect(title).toHaveValue('Harbour at night');
    await expect(hero.getByText('Unsaved changes from before were restored.')).toBeVisible();

    await press(page, save, hand);
    await expect(page.getByText('hero: draft saved')).toHaveCount(1);
    await expect(unsaved).toHaveCount(0);
    await expect.poll(async () => (await workingCopy(site)).fields.title).toBe('Harbour at night');
    await expect(title).toHaveValue('Harbour at night');
  });

  test(`by ${hand}: text typed while the entry is unpublished stays, and is saved next`, async ({ page }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', [HERO]);
    const entry = await entryOf(folio(), site, '/', 'hero');
    await patchEntry(folio(), site, site.admin.token, entry.id, {
      fields: { title: 'Live' },
      status: 'published',
    });
    const hero = await openPage(page, site);
    const title = hero.getByRole('textbox', { name: 'Title', exact: true });
    await expect(title).toHaveValue('Live');

    await typeAtEnd(page, title, ' edited', hand);
    const unpublish = await hold(page, 'POST', /\/v1\/content\/ent_[^/]+\/unpublish(\?.*)?$/);
    await press(page, hero.getByRole('button', { name: 'Unpublish', exact: true }), hand);
    await unpublish.sent;
    await typeAtEnd(page, title, ' more', hand, true);
    unpublish.release();
    await expect(page.getByText('hero: unpublished')).toBeVisible();

    await expect(title).toHaveValue('Live edited more');
    await expect(hero.getByText('unsaved changes', { exact: true })).toBeVisible();
    const unpublished = await workingCopy(site);
    expect(unpublished.publishedAt).toBeNull();
    expect(unpublished.fields.title).toBe('Live');

    // Moved onto the unpublished version: the save is no conflict, and sends all of it.
    await press(page, hero.getByRole('button', { name: 'Save draft' }), hand);
    await expect(page.getByText('hero: draft saved')).toBeVisible();
    await expect.poll(async () => (await workingCopy(site)).fields.title).toBe('Live edited more');
    await expect(hero.getByText('unsaved changes', { exact: true })).toHaveCount(0);
  });

  test(`by ${hand}: text typed while a translation is removed stays, with the cursor, and is saved next`, async ({
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
    await patchEntry(folio(), site, site.admin.token, entry.id, { fields: { title: 'Hello' } });
    const fr = await api<EntryData>(folio(), 'PATCH', `/v1/content/${entry.id}?locale=fr`, {
      token: site.admin.token,
      key: site.apiKey,
      body: { fields: { title: 'Bonjour' } },
    });
    expect(fr.fields.title).toBe('Bonjour');

    const hero = await openPage(page, site);
    await page.getByLabel('Language', { exact: true }).selectOption('fr');
    const title = hero.getByRole('textbox', { name: 'Title', exact: true });
    const subtitle = hero.getByRole('textbox', { name: 'Subtitle', exact: true });
    await expect(title).toHaveValue('Bonjour');

    await typeAtEnd(page, subtitle, 'Sur le port', hand);
    const patch = await hold(page, 'PATCH', /\/v1\/content\/ent_[^/?]+\?locale=fr$/);
    // By keyboard, back (Shift+Tab) from the subtitle to the title's button.
    const remove = hero.getByRole('button', { name: 'Remove the fr translation of Title' });
    if (hand === 'mouse') await remove.click();
    else {
      await tabTo(page, remove, { back: true });
      await page.keyboard.press('Enter');
    }
    await patch.sent;
    await typeAtEnd(page, subtitle, ' la nuit', hand);
    patch.release();

    // The title reads the English value again; the subtitle keeps everything, and the cursor.
    await expect(title).toHaveValue('Hello');
    await expect(hero.getByText('from en', { exact: true })).toBeVisible();
    await expect(subtitle).toHaveValue('Sur le port la nuit');
    await expect(subtitle).toBeFocused();
    await page.keyboard.type('!');
    await expect(subtitle).toHaveValue('Sur le port la nuit!');
    await expect(hero.getByText('unsaved changes', { exact: true })).toBeVisible();
    await screenshot(page, `typing-during-remove-translation-${hand}`);

    await press(page, hero.getByRole('button', { name: 'Save draft' }), hand);
    await expect(page.getByText('hero: draft saved')).toBeVisible();
    await expect
      .poll(async () => (await workingCopy(site, 'fr')).fields.subtitle)
      .toBe('Sur le port la nuit!');
    const saved = await workingCopy(site, 'fr');
    expect(saved.fields.title).toBe('Hello');
    expect(saved.fallbacks?.title).toBe('en');
  });
}
