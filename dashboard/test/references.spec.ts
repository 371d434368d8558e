import { expect, expectAccessible, HANDS, press, screenshot, signIn, tabTo, test } from './support/fixtures';
import {
  editorEntries,
  entryOf,
  type Folio,
  folioForThisFile,
  newSite,
  patchEntry,
  type Site,
  syncPage,
  visitorEntries,
} from './support/folio';
import { TESTIMONIAL } from './support/marketing-page';

/**
 * Issue 36 item 3, references both ways: "Used on N pages" on an entry (GET /v1/content/:id/references)
 * lists the pages that refer to it, as links; deleting an entry or a page that published content refers
 * to is refused (409) and the confirmation names what refers to it before offering Delete anyway
 * (?force=true). A delete without referrers asks as before. Each by mouse and by keyboard.
 */
const folio = folioForThisFile();

const CARD = {
  componentId: 'Card',
  instanceKey: 'card',
  fields: [
    { key: 'title', type: 'text', label: 'Title' },
    { key: 'quote', type: 'reference', label: 'Testimonial', componentIds: ['Testimonial'] },
  ],
};

/**
 * A testimonial on the shared page `@site`, referred to by the card of `/` (published) and by the card
 * of `/pricing` (a draft only); `/about` refers to nothing.
 */
async function referencedTestimonial(f: Folio, site: Site) {
  await syncPage(f, site, '@site', [TESTIMONIAL]);
  await syncPage(f, site, '/', [CARD]);
  await syncPage(f, site, '/pricing', [CARD]);
  await syncPage(f, site, '/about', [{ componentId: 'Text', instanceKey: 'text', fields: [] }]);
  const ada = await entryOf(f, site, '@site', 'ada');
  await patchEntry(f, site, site.admin.token, ada.id, { fields: { said: 'Worth it' }, status: 'published' });
  const home = await entryOf(f, site, '/', 'card');
  await patchEntry(f, site, site.admin.token, home.id, {
    fields: { title: 'Home', quote: ada.id },
    status: 'published',
  });
  const pricing = await entryOf(f, site, '/pricing', 'card');
  await patchEntry(f, site, site.admin.token, pricing.id, { fields: { title: 'Pricing', quote: ada.id } });
  return ada;
}

const sitePage = (site: Site, pageId: string) =>
  `${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(pageId)}`;

for (const hand of HANDS) {
  test(`by ${hand}: "Used on 2 pages" lists the referring pages and entries, each page a link to its editor`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await referencedTestimonial(folio(), site);
    await page.goto(sitePage(site, '@site'));
    await signIn(page, site.admin.email);

    const ada = page.getByRole('region', { name: 'ada' });
    const usedOn = ada.getByRole('button', { name: 'Used on 2 pages' });
    await expect(usedOn).toHaveAttribute('aria-expanded', 'false');
    await press(page, usedOn, hand);
    await expect(usedOn).toHaveAttribute('aria-expanded', 'true');
    const list = ada.getByRole('region', { name: 'Pages that use ada' });
    await expect(list.getByRole('listitem')).toHaveCount(4); // two pages, one entry each
    await expect(list).toContainText('card (Card) at fields.quote, published');
    await expect(list).toContainText('card (Card) at fields.quote, in the draft only');
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'references-used-on');

    await press(page, list.getByRole('link', { name: '/pricing', exact: true }), hand);
    await expect(page).toHaveURL(new RegExp(`/pages/${encodeURIComponent('/pricing')}$`));
    const card = page.getByRole('region', { name: 'card' });
    await expect(card.getByLabel('Title')).toHaveValue('Pricing');
    // Nothing refers to the card itself.
    await expect(card.getByText('Used on no page')).toBeVisible();
  });

  test(`by ${hand}: deleting an entry published content refers to names the referrers, then Delete anyway`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await referencedTestimonial(folio(), site);
    await page.goto(sitePage(site, '@site'));
    await signIn(page, site.admin.email);

    const ada = page.getByRole('region', { name: 'ada' });
    await press(page, ada.getByRole('button', { name: 'Delete', exact: true }), hand);
    const confirm = page.getByRole('dialog', { name: 'Delete ada?' });
    await press(page, confirm.getByRole('button', { name: 'Delete', exact: true }), hand);

    // Refused: the dialog names the one entry whose published copy refers to it (the draft of /pricing does not count).
    const refusal = confirm.getByRole('alert');
    await expect(refusal).toContainText('Published content refers to this');
    await expect(refusal).toContainText(
      'One entry refers to it in its published copy, so nothing was deleted',
    );
    await expect(refusal.getByRole('link', { name: '/', exact: true })).toBeVisible();
    await expect(refusal.getByRole('link', { name: '/pricing', exact: true })).toHaveCount(0);
    await expect(refusal).toContainText('card (Card)');
    await expect(confirm.getByRole('button', { name: 'Delete anyway' })).toBeVisible();
    expect((await editorEntries(folio(), site, '@site')).map((e) => e.instanceKey)).toEqual(['ada']);
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'references-delete-refused');

    await press(page, confirm.getByRole('button', { name: 'Delete anyway' }), hand);
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'ada' })).toHaveCount(0);
    expect(await editorEntries(folio(), site, '@site')).toEqual([]);
    // The reference of the published card now reads as missing for visitors.
    const [card] = await visitorEntries(folio(), site, '/');
    expect(card?.fields.quote).toBeNull();
  });

  test(`by ${hand}: deleting a page other pages refer to names them; Cancel keeps it, Delete anyway removes it`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await referencedTestimonial(folio(), site);
    await page.goto(sitePage(site, '@site'));
    await signIn(page, site.admin.email);
    await expect(page.getByRole('region', { name: 'ada' })).toBeVisible();

    const actions = page.getByRole('group', { name: 'Page actions' });
    await press(page, actions.getByRole('button', { name: 'Delete', exact: true }), hand);
    const confirm = page.getByRole('dialog', { name: 'Delete the page @site?' });
    await press(page, confirm.getByRole('button', { name: 'Delete', exact: true }), hand);
    await expect(confirm.getByRole('alert')).toContainText('Published content refers to this');
    await expect(confirm.getByRole('alert').getByRole('link', { name: '/', exact: true })).toBeVisible();
    await press(page, confirm.getByRole('button', { name: 'Cancel' }), hand);
    await expect(confirm).toHaveCount(0);
    expect(await editorEntries(folio(), site, '@site')).toHaveLength(1);

    // Asked again: a plain Delete first (the refusal is not remembered), then Delete anyway.
    await press(page, actions.getByRole('button', { name: 'Delete', exact: true }), hand);
    await expect(confirm.getByRole('alert')).toHaveCount(0);
    await press(page, confirm.getByRole('button', { name: 'Delete', exact: true }), hand);
    await press(page, confirm.getByRole('button', { name: 'Delete anyway' }), hand);
    await expect(page).toHaveURL(new RegExp(`/admin/p/${site.projectId}/pages$`));
    expect(await editorEntries(folio(), site, '@site')).toEqual([]);
  });
}

test('an entry nothing refers to: "Used on no page", and Delete asks once and deletes (as before)', async ({
  page,
}) => {
  const site = await newSite(folio());
  await referencedTestimonial(folio(), site);
  await page.goto(sitePage(site, '/'));
  await signIn(page, site.admin.email);
  const card = page.getByRole('region', { name: 'card' });
  await expect(card.getByText('Used on no page')).toBeVisible();
  await tabTo(page, card.getByRole('button', { name: 'Delete', exact: true }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete card?' });
  await expect(confirm.getByRole('button', { name: 'Delete anyway' })).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'card' })).toHaveCount(0);
  expect(await editorEntries(folio(), site, '/')).toEqual([]);
});

test('a page of 40 entries asks who refers to each only as its form nears the screen', async ({ page }) => {
  const site = await newSite(folio());
  const many = Array.from({ length: 40 }, (_, i) => ({
    componentId: 'Text',
    instanceKey: `text-${String(i).padStart(2, '0')}`,
    fields: [{ key: 'body', type: 'text', label: 'Body' }],
  }));
  await syncPage(folio(), site, '/long', many);
  const asked = new Set<string>();
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith('/references')) asked.add(path);
  });
  await page.goto(sitePage(site, '/long'));
  await signIn(page, site.admin.email);
  const first = page.getByRole('region', { name: 'text-00' });
  await expect(first.getByText('Used on no page')).toBeVisible();
  await page.waitForTimeout(500);
  const atFirst = asked.size;
  expect(atFirst).toBeGreaterThan(0);
  expect(atFirst).toBeLessThan(20);

  const last = page.getByRole('region', { name: 'text-39' });
  await last.scrollIntoViewIfNeeded();
  await expect(last.getByText('Used on no page')).toBeVisible();
  expect(asked.size).toBeGreaterThan(atFirst);
});
