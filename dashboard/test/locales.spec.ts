import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  HANDS,
  type Hand,
  press,
  screenshot,
  signIn,
  tabTo,
  test,
} from './support/fixtures';
import { api, type EntryData, folioForThisFile, newSite, type Site, syncPage } from './support/folio';

/**
 * Issue 36 item 5, languages: Settings edit the project's locales (plain words for the API's refusals);
 * the page editor's language switcher (remembered), each entry's status per locale, values read
 * through a fallback marked as such and never sent unless typed, side by side with a read-only source,
 * publish in one or every locale, the locale in history. Each by mouse and by keyboard; what was
 * written is read back through the API.
 */
const folio = folioForThisFile();

const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    { key: 'title', type: 'text', label: 'Title', localized: true },
    { key: 'subtitle', type: 'text', label: 'Subtitle', localized: true },
    { key: 'cta', type: 'url', label: 'Button link' },
  ],
};

const LOCALES = { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] };

const setLocales = (site: Site, locales: unknown) =>
  api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
    token: site.admin.token,
    headers: { 'x-cms-project-id': site.projectId },
    body: { locales },
  });

const read = (site: Site, locale: string, editor = true) =>
  api<EntryData[]>(folio(), 'GET', `/v1/content/${encodeURIComponent('/')}?locale=${locale}`, {
    key: site.apiKey,
    ...(editor ? { token: site.admin.token } : {}),
  });

/** Picks an option of a native select: by mouse, or focused by Tab and moved with the arrow keys. */
async function choose(page: Page, select: Locator, value: string, hand: Hand) {
  if (hand === 'mouse') {
    await select.selectOption(value);
  } else {
    await tabTo(page, select);
    const values = await select.evaluate((el) => [...(el as HTMLSelectElement).options].map((o) => o.value));
    const from = values.indexOf(await select.inputValue());
    const to = values.indexOf(value);
    for (let i = from; i !== to; i += to > from ? 1 : -1)
      await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  }
  await expect(select).toHaveValue(value);
}

/** Types into a field: clicked, or reached by Tab. */
async function typeInto(page: Page, field: Locator, text: string, hand: Hand) {
  if (hand === 'mouse') await field.click();
  else await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

for (const hand of HANDS) {
  test(`by ${hand}: Settings add French falling back to English, saying a bad code in plain words`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await page.goto(`${folio().admin}/p/${site.projectId}/settings`);
    await signIn(page, site.admin.email);
    const languages = page.getByRole('region', { name: 'Languages' });
    await press(page, languages.getByRole('button', { name: 'Add languages' }), hand);
    await expect(languages.getByLabel('Default language')).toHaveValue('en');
    await press(page, languages.getByRole('button', { name: 'Add a language' }), hand);
    await typeInto(page, languages.getByLabel('Language 2', { exact: true }), 'fr_FR!', hand);
    await press(page, languages.getByRole('button', { name: 'Save languages' }), hand);
    await expect(languages.getByText('Not a language code: use one such as en, fr or fr-CA.')).toBeVisible();
    await typeInto(page, languages.getByLabel('Language 2', { exact: true }), 'fr', hand);
    await expect(languages.getByLabel('Language 2 falls back to')).toHaveValue('en');
    await press(page, languages.getByRole('button', { name: 'Save languages' }), hand);
    await expect(page.getByText('Languages saved')).toBeVisible();
    const project = await api<{ locales: unknown }>(folio(), 'GET', `/v1/projects/${site.projectId}`, {
      token: site.admin.token,
    });
    expect(project.locales).toEqual(LOCALES);
    await expect(languages.getByLabel('Default language')).toHaveAttribute('readonly', '');
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'locales-settings');

    // A third language falling back to French, stored in canonical case; then removed again.
    await press(page, languages.getByRole('button', { name: 'Add a language' }), hand);
    await typeInto(page, languages.getByLabel('Language 3', { exact: true }), 'fr-ca', hand);
    await choose(page, languages.getByLabel('Language 3 falls back to'), 'fr', hand);
    await press(page, languages.getByRole('button', { name: 'Save languages' }), hand);
    await expect(languages.getByLabel('Language 3', { exact: true })).toHaveValue('fr-CA');
    const three = await api<{ locales: unknown }>(folio(), 'GET', `/v1/projects/${site.projectId}`, {
      token: site.admin.token,
    });
    expect(three.locales).toEqual({
      default: 'en',
      available: [...LOCALES.available, { code: 'fr-CA', fallback: 'fr' }],
    });
    await press(page, languages.getByRole('button', { name: 'Remove language fr-CA' }), hand);
    await expect(languages.getByLabel('Language 3', { exact: true })).toHaveCount(0);
    await press(page, languages.getByRole('button', { name: 'Save languages' }), hand);
    await expect
      .poll(
        async () =>
          (
            await api<{ locales: unknown }>(folio(), 'GET', `/v1/projects/${site.projectId}`, {
              token: site.admin.token,
            })
          ).locales,
      )
      .toEqual(LOCALES);

    // Turning languages off while French holds a value: the API's 409, in its own plain words.
    await syncPage(folio(), site, '/', [HERO]);
    const hero = (await read(site, 'fr'))[0]!;
    await api(folio(), 'PATCH', `/v1/content/${hero.id}?locale=fr`, {
      token: site.admin.token,
      key: site.apiKey,
      body: { fields: { title: 'Bonjour' } },
    });
    await press(page, languages.getByRole('button', { name: 'Turn languages off' }), hand);
    await expect(languages.getByRole('alert')).toContainText('other locales hold content (fr)');
  });

  test(`by ${hand}: a page translated side by side, published in every language and read back`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', [HERO]);
    await setLocales(site, LOCALES);
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);
    const hero = page.getByRole('region', { name: 'hero' });

    // English first (the default): every field, published in English.
    const language = page.getByLabel('Language', { exact: true });
    await expect(language).toHaveValue('en');
    await typeInto(page, hero.getByLabel('Title', { exact: true }), 'Hello', hand);
    await typeInto(page, hero.getByLabel('Subtitle'), 'Fast pages', hand);
    await typeInto(page, hero.getByLabel('Button link'), 'https://example.com/start', hand);
    await expect(hero.getByText('Shared: the same in every language.')).toBeVisible();
    await press(page, hero.getByRole('button', { name: 'Publish en', exact: true }), hand);
    await expect(hero.getByRole('listitem', { name: 'en: published (editing)' })).toBeVisible();
    await expect(hero.getByRole('listitem', { name: /^fr: missing/ })).toBeVisible();

    // French: the values come from English until translated, and say so.
    await choose(page, language, 'fr', hand);
    await expect(hero.getByLabel('Title', { exact: true })).toHaveValue('Hello');
    await expect(hero.getByText('from en')).toHaveCount(2);
    await press(page, page.getByRole('button', { name: 'Side by side' }), hand);
    await expect(page.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Compare with')).toHaveValue('en');
    await expect(hero.getByLabel('Title (en)', { exact: true })).toHaveValue('Hello');
    await typeInto(page, hero.getByLabel('Title', { exact: true }), 'Bonjour', hand);
    await expect(hero.getByText('from en')).toHaveCount(1); // the subtitle, not typed
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'locales-side-by-side');
    await press(page, hero.getByRole('button', { name: 'Save draft' }), hand);
    await expect(page.getByText('hero: draft saved')).toBeVisible();

    // Only what was typed went into French: the subtitle still reads through English.
    const fr = (await read(site, 'fr'))[0]!;
    expect(fr.fields).toMatchObject({ title: 'Bonjour', subtitle: 'Fast pages' });
    expect(fr.fallbacks).toEqual({ subtitle: 'en' });
    expect((await read(site, 'en'))[0]!.fields).toMatchObject({ title: 'Hello', subtitle: 'Fast pages' });

    // Publish the page in every language; visitors read each.
    await press(page, page.getByRole('button', { name: 'Publish in every language' }), hand);
    await expect(page.getByText(/Published 1 entry in every language/)).toBeVisible();
    await expect(hero.getByRole('listitem', { name: 'fr: published (editing)' })).toBeVisible();
    // Each locale's published copy, as the editor's read reports it and as visitors of each read it.
    const after = (await read(site, 'fr'))[0]!;
    expect(after.locales).toMatchObject({ en: { status: 'published' }, fr: { status: 'published' } });
    expect((await read(site, 'en', false))[0]!.fields).toMatchObject({ title: 'Hello' });
    expect((await read(site, 'fr', false))[0]!.fields).toMatchObject({
      title: 'Bonjour',
      subtitle: 'Fast pages',
    });

    // Unpublish French only: English stays live, French is missing again (visitors read the fallback).
    await press(page, hero.getByRole('button', { name: 'Unpublish fr' }), hand);
    await expect(hero.getByRole('listitem', { name: /^fr: missing/ })).toBeVisible();
    expect((await read(site, 'fr'))[0]!.locales).toMatchObject({
      en: { status: 'published' },
      fr: { publishedAt: null },
    });

    // The choice is remembered: a reload opens the page in French.
    await page.reload();
    await expect(page.getByLabel('Language', { exact: true })).toHaveValue('fr');
    await expect(page.getByRole('region', { name: 'hero' }).getByLabel('Title', { exact: true })).toHaveValue(
      'Bonjour',
    );

    // Remove the French title: it reads through English again, and the API holds no French value of it.
    const again = page.getByRole('region', { name: 'hero' });
    await press(page, again.getByRole('button', { name: 'Remove the fr translation of Title' }), hand);
    await expect(again.getByLabel('Title', { exact: true })).toHaveValue('Hello');
    await expect(again.getByText('from en')).toHaveCount(2);
    expect((await read(site, 'fr'))[0]!.fallbacks).toEqual({ title: 'en', subtitle: 'en' });

    // History names each version's language.
    await press(
      page,
      page.getByRole('region', { name: 'hero' }).getByRole('link', { name: 'History' }),
      hand,
    );
    await expect(page.getByLabel('Language fr').first()).toBeVisible();
    await expect(page.getByLabel('Language en').first()).toBeVisible();
    await expectAccessible(page);

    // Restoring a French version writes into French (its own title again), with French's version as If-Match.
    const frVersion = page
      .getByRole('region', { name: /^Version of/ })
      .filter({ has: page.getByLabel('Language fr') })
      .first();
    await press(page, frVersion.getByRole('button', { name: 'Restore' }), hand);
    await press(
      page,
      page.getByRole('dialog', { name: 'Restore this version?' }).getByRole('button', { name: 'Restore' }),
      hand,
    );
    await expect(page.getByText('Restored into the working copy. Publish it to make it live.')).toBeVisible();
    const restored = (await read(site, 'fr'))[0]!;
    expect(restored.fields).toMatchObject({ title: 'Bonjour' });
    expect(restored.fallbacks).toEqual({ subtitle: 'en' });
    expect((await read(site, 'en'))[0]!.fields).toMatchObject({ title: 'Hello' });
  });
}

for (const hand of HANDS) {
  test(`by ${hand}: a schedule in one language or every one, listed with it; the activity log names the language`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', [HERO]);
    await setLocales(site, LOCALES);
    const hero = (await read(site, 'fr'))[0]!;
    await api(folio(), 'PATCH', `/v1/content/${hero.id}?locale=fr`, {
      token: site.admin.token,
      key: site.apiKey,
      body: { fields: { title: 'Bonjour' } },
    });
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);
    await choose(page, page.getByLabel('Language', { exact: true }), 'fr', hand);
    const form = page.getByRole('region', { name: 'hero' });
    await expect(form.getByLabel('Title', { exact: true })).toHaveValue('Bonjour');

    // The entry's schedule, in French only.
    await press(page, form.getByRole('button', { name: 'Schedule', exact: true }), hand);
    let dialog = page.getByRole('dialog', { name: 'Schedule hero' });
    await expect(dialog.getByRole('radio', { name: 'Only fr' })).toBeChecked();
    await press(page, dialog.getByRole('button', { name: 'Schedule', exact: true }), hand);
    await expect(dialog).toBeHidden();
    // The page's, in every language.
    await press(page, page.getByRole('button', { name: 'Schedule page' }), hand);
    dialog = page.getByRole('dialog', { name: 'Schedule page /' });
    const every = dialog.getByRole('radio', { name: 'Every language' });
    if (hand === 'mouse') await every.click();
    else {
      await tabTo(page, dialog.getByRole('radio', { name: 'Only fr' }));
      await page.keyboard.press('ArrowDown');
    }
    await expect(every).toBeChecked();
    await press(page, dialog.getByRole('button', { name: 'Schedule', exact: true }), hand);
    await expect(dialog).toBeHidden();

    const schedules = page.getByRole('table', { name: 'Schedules of this page' });
    await expect(schedules).toContainText('Publish hero in fr');
    await expect(schedules).toContainText('Publish every draft of / in every language');
    const stored = await api<{ locale?: string; entryId: string | null }[]>(folio(), 'GET', '/v1/schedules', {
      token: site.admin.token,
      headers: { 'x-cms-project-id': site.projectId },
    });
    expect(stored.map((s) => s.locale).sort()).toEqual(['*', 'fr']);
    await expectAccessible(page);

    // Publish the page in French only: English stays unpublished.
    await press(page, page.getByRole('button', { name: 'Publish page in fr' }), hand);
    await expect(page.getByText('Published 1 entry in fr.')).toBeVisible();
    expect((await read(site, 'fr'))[0]!.locales).toMatchObject({
      en: { publishedAt: null },
      fr: { status: 'published' },
    });

    // The activity log: a Language column, fr for the translation saved above.
    await page.goto(`${folio().admin}/p/${site.projectId}/activity`);
    const log = page.getByRole('table', { name: 'Activity' });
    await expect(log.getByRole('columnheader', { name: 'Language' })).toBeVisible();
    await expect(log.getByRole('row').filter({ hasText: 'entry.updated' }).first()).toContainText('fr');
    await expectAccessible(page);
  });
}

test('a project without languages shows no switcher and sends no locale', async ({ page }) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '/', [HERO]);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/v1/content')) sent.push(r.url());
  });
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
  await signIn(page, site.admin.email);
  const hero = page.getByRole('region', { name: 'hero' });
  await typeInto(page, hero.getByLabel('Title', { exact: true }), 'Hello', 'mouse');
  await hero.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText('hero: published')).toBeVisible();
  await expect(page.getByLabel('Language', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish page', exact: true })).toBeVisible();
  await expect(hero.getByText('Shared: the same in every language.')).toHaveCount(0);
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.filter((u) => u.includes('locale='))).toEqual([]);
});

for (const hand of HANDS) {
  test(`by ${hand}: the preview pane follows the language switcher when its URL has {locale}`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', [HERO]);
    await setLocales(site, LOCALES);
    await api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
      token: site.admin.token,
      headers: { 'x-cms-project-id': site.projectId },
      body: { previewUrl: 'http://127.0.0.1:9/{locale}{pageId}' },
    });
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);
    const frame = page.getByTitle('Preview of /');
    await expect(frame).toHaveAttribute('src', 'http://127.0.0.1:9/en/');
    await choose(page, page.getByLabel('Language', { exact: true }), 'fr', hand);
    await expect(frame).toHaveAttribute('src', 'http://127.0.0.1:9/fr/');
  });
}
