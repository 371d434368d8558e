import { expect, expectAccessible, HANDS, press, screenshot, signIn, tabTo, test } from './support/fixtures';
import {
  entryOf,
  type Folio,
  folioForThisFile,
  newSite,
  patchEntry,
  type Site,
  syncPage,
} from './support/folio';
import { TESTIMONIAL } from './support/marketing-page';

/**
 * Issue 44 item 10: the reference picker read the first 20 pages of the project, so past them a chosen
 * entry showed as a bare `ent_…` id and entries there could not be found. It now asks the entry search
 * (GET /v1/entries) as the editor types, and names the chosen entries by id: title, component and
 * page, after a save and a reload, whatever the project's size.
 */
const folio = folioForThisFile();

const CARD = {
  componentId: 'Card',
  instanceKey: 'card',
  fields: [
    { key: 'title', type: 'text', label: 'Title' },
    { key: 'quote', type: 'reference', label: 'Quote', componentIds: ['Testimonial'] },
  ],
};

/** 26 pages before `@site` in page order (`/` and /p-01 … /p-25), then the testimonial on `@site`. */
async function bigProject(f: Folio, site: Site) {
  await syncPage(f, site, '/', [CARD]);
  for (let n = 1; n <= 25; n++) {
    await syncPage(f, site, `/p-${String(n).padStart(2, '0')}`, [
      { componentId: 'Testimonial', instanceKey: `t${n}`, fields: [{ key: 'said', type: 'text' }] },
    ]);
  }
  await syncPage(f, site, '@site', [TESTIMONIAL]);
  const ada = await entryOf(f, site, '@site', 'ada');
  await patchEntry(f, site, site.admin.token, ada.id, { fields: { said: 'Worth it' }, status: 'published' });
  return ada;
}

for (const hand of HANDS) {
  test(`by ${hand}: a reference to an entry past the 20th page is found as the editor types and named after a reload`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    const ada = await bigProject(folio(), site);
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);

    const card = page.getByRole('region', { name: 'card' });
    await press(page, card.getByRole('button', { name: 'Search entries' }), hand);
    const search = card.getByRole('group', { name: 'Search entries for Quote' });
    const pageBox = search.getByLabel('Page', { exact: true });
    if (hand === 'mouse') await pageBox.click();
    else await tabTo(page, pageBox);
    await page.keyboard.type('@si');
    const choose = search.getByRole('button', { name: 'Choose Worth it (Testimonial on @site)' });
    await press(page, choose, hand);

    const chosen = card.getByRole('link', { name: 'Worth it' });
    await expect(chosen).toBeVisible();
    await expect(card.getByText('on @site')).toBeVisible();
    await expect(card.getByText('ent_', { exact: false })).toHaveCount(0);
    await press(page, card.getByRole('button', { name: 'Save draft' }), hand);
    await expect(card.getByText('unsaved changes')).toHaveCount(0);
    expect((await entryOf(folio(), site, '/', 'card')).fields).toEqual({ quote: ada.id });

    await page.reload();
    const again = page.getByRole('region', { name: 'card' });
    await expect(again.getByRole('link', { name: 'Worth it' })).toBeVisible();
    await expect(again.getByText('Testimonial', { exact: true })).toBeVisible();
    await expect(again.getByText('on @site')).toBeVisible();
    await expect(again.getByText('published', { exact: true })).toBeVisible();
    await expect(again.getByText(ada.id)).toHaveCount(0);
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'reference-search-late-page');
  });
}

test('the page box finds a late route page too, and the text box narrows by title', async ({ page }) => {
  const site = await newSite(folio());
  await bigProject(folio(), site);
  const late = await entryOf(folio(), site, '/p-24', 't24');
  await patchEntry(folio(), site, site.admin.token, late.id, { fields: { said: 'Late but kind' } });
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
  await signIn(page, site.admin.email);

  const card = page.getByRole('region', { name: 'card' });
  await card.getByRole('button', { name: 'Search entries' }).click();
  const search = card.getByRole('group', { name: 'Search entries for Quote' });
  await search.getByLabel('Page', { exact: true }).fill('P-2');
  await search.getByLabel('Component or text').fill('kind');
  await expect(search.getByRole('button', { name: /^Choose/ })).toHaveCount(1);
  await search.getByRole('button', { name: 'Choose Late but kind (Testimonial on /p-24)' }).click();
  await card.getByRole('button', { name: 'Save draft' }).click();
  await expect(card.getByText('unsaved changes')).toHaveCount(0);
  expect((await entryOf(folio(), site, '/', 'card')).fields).toEqual({ quote: late.id });
  await page.reload();
  await expect(page.getByRole('region', { name: 'card' }).getByText('on /p-24')).toBeVisible();
});
