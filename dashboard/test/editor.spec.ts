import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { entryOf, folioForThisFile, newMember, newSite, patchEntry, visitorEntries } from './support/folio';
import { FOOTER, HERO, HOME, homePage, PNG } from './support/page-fixture';

/** Workflow 3: pages with their counts; a page's entries as forms; save, publish, unpublish, delete. */
const folio = folioForThisFile();

test('pages list with counts, then every field type edited, saved, published, unpublished; page publish; delete', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  await newSite(folio()); // another project's pages never show here
  const hero = await entryOf(folio(), site, HOME, HERO.instanceKey);
  // A key no definition declares: shown read-only as JSON.
  await patchEntry(folio(), site, site.admin.token, hero.id, {
    fields: { title: 'Fresh bread', legacy: { old: true } },
    status: 'published',
  });

  await page.goto(folio().admin);
  await signIn(page, site.admin.email);
  const row = page.getByRole('row', { name: /^\// });
  await expect(row).toContainText('2'); // components
  await expect(row).toContainText('1 published');
  await expect(row).toContainText('1 draft');
  await expectAccessible(page);
  await screenshot(page, 'pages');

  await page.getByRole('link', { name: HOME, exact: true }).click();
  const heroForm = page.getByRole('region', { name: 'hero' });
  await expect(heroForm.getByLabel('title')).toHaveValue('Fresh bread');
  await expect(heroForm.getByRole('textbox', { name: 'body' })).toBeVisible(); // Tiptap, loaded on demand
  await expect(heroForm.getByLabel('legacy')).toHaveValue(/"old": true/);
  await expect(heroForm.getByLabel('legacy')).toHaveAttribute('readonly', '');
  await expectAccessible(page);

  // Every control, by its key.
  await heroForm.getByLabel('title').fill('Sourdough every morning');
  await heroForm.getByRole('textbox', { name: 'body' }).click();
  await page.keyboard.type('Baked at dawn.');
  await heroForm.getByLabel('count').fill('12');
  await heroForm.getByRole('switch', { name: 'featured' }).check();
  await heroForm.getByLabel('link').fill('javascript:alert(1)');
  await heroForm.getByLabel('data').fill('{ "broken": ');
  await expect(
    heroForm.getByText('Enter an http(s), mailto: or tel: address, or a path such as /about'),
  ).toBeVisible();
  await expect(heroForm.getByText('Not valid JSON')).toBeVisible();
  await heroForm.getByRole('button', { name: 'Save draft' }).click();
  await expect(heroForm.getByRole('alert')).toContainText('Fix link, data first');
  await heroForm.getByLabel('link').fill('/visit');
  await heroForm.getByLabel('data').fill('{ "hours": [7, 19] }');

  // An image from an upload through the media library.
  await heroForm.getByRole('button', { name: 'Choose an image for image' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose an image' });
  await picker
    .locator('input[type=file]')
    .setInputFiles({ name: 'loaf.png', mimeType: 'image/png', buffer: PNG });
  await expect(picker).toBeHidden();
  await expect(heroForm.getByLabel('image', { exact: true })).toHaveValue(/\/media\/.+\.png$/);
  const uploaded = await heroForm.getByLabel('image', { exact: true }).inputValue();
  // And the library offers it next time.
  await heroForm.getByLabel('image', { exact: true }).fill('');
  await heroForm.getByRole('button', { name: 'Choose an image for image' }).click();
  await picker.getByRole('button', { name: 'Use loaf.png' }).click();
  await expect(heroForm.getByLabel('image', { exact: true })).toHaveValue(uploaded);
  // Alt text (issue 36 item 1): typed after the address, by keyboard from it.
  await heroForm.getByLabel('image', { exact: true }).focus();
  await page.keyboard.press('Tab'); // the "Choose…" button
  await page.keyboard.press('Tab');
  await expect(heroForm.getByLabel('image: alt text')).toBeFocused();
  await page.keyboard.type('A round loaf');
  // And by mouse: a real click into it, then more text at its end.
  await heroForm.getByLabel('image: alt text').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' on a board');
  await screenshot(page, 'page-editor');

  await heroForm.getByRole('button', { name: 'Save draft' }).click();
  await expect(heroForm.getByText('unsaved changes')).toHaveCount(0);
  let saved = await entryOf(folio(), site, HOME, 'hero');
  expect(saved.fields).toMatchObject({
    title: 'Sourdough every morning',
    count: 12,
    featured: true,
    link: '/visit',
    data: { hours: [7, 19] },
    legacy: { old: true },
  });
  expect(saved.fields.body).toContain('Baked at dawn.');
  expect(saved.fields.image).toEqual({ url: uploaded, alt: 'A round loaf on a board' });
  // A draft: visitors still see the published copy.
  expect((await visitorEntries(folio(), site, HOME))[0]?.fields.title).toBe('Fresh bread');

  await heroForm.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(heroForm.getByText('published', { exact: true })).toBeVisible();
  expect((await visitorEntries(folio(), site, HOME))[0]?.fields.title).toBe('Sourdough every morning');

  // Publish page: every draft of the page at once.
  const footerForm = page.getByRole('region', { name: 'footer' });
  await footerForm.getByLabel('note').fill('Closed on Mondays');
  await expect(page.getByRole('button', { name: 'Publish page' })).toBeDisabled(); // unsaved first
  await footerForm.getByRole('button', { name: 'Save draft' }).click();
  await expect(footerForm.getByText('unsaved changes')).toHaveCount(0);
  await page.getByRole('button', { name: 'Publish page' }).click();
  await expect(page.getByText('Published 1 entry.')).toBeVisible();
  const live = await visitorEntries(folio(), site, HOME);
  // In the page's order (its sync sent hero, then footer).
  expect(live.map((e) => [e.instanceKey, e.fields.note ?? e.fields.title])).toEqual([
    ['hero', 'Sourdough every morning'],
    ['footer', 'Closed on Mondays'],
  ]);

  await heroForm.getByRole('button', { name: 'Unpublish' }).click();
  await expect(heroForm.getByRole('button', { name: 'Unpublish' })).toBeDisabled();
  expect((await visitorEntries(folio(), site, HOME)).map((e) => e.instanceKey)).toEqual(['footer']);

  // Delete asks first (admins only).
  await footerForm.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete footer?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(footerForm).toBeVisible();
  await footerForm.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('region', { name: 'footer' })).toHaveCount(0);
  expect((await visitorEntries(folio(), site, HOME)).map((e) => e.instanceKey)).toEqual([]);

  saved = await entryOf(folio(), site, HOME, 'hero');
  expect(saved.fields.title).toBe('Sourdough every morning');
});

test('an editor (not admin) edits and publishes but is offered no Delete', async ({ page }) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  const editor = await newMember(folio(), site, 'editor');
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, editor.email);
  const footerForm = page.getByRole('region', { name: FOOTER.instanceKey });
  await footerForm.getByLabel('note').fill('Open daily');
  await footerForm.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(footerForm.getByText('published', { exact: true })).toBeVisible();
  expect((await visitorEntries(folio(), site, HOME))[0]?.fields.note).toBe('Open daily');
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
});
