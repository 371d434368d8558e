import { expect, screenshot, signIn, test } from './support/fixtures';
import { entryOf, folioForThisFile, newMember, newSite, patchEntry } from './support/folio';
import { HOME, homePage } from './support/page-fixture';

/** Workflow 3: If-Match on every write; a 412 names who changed the entry and offers Reload or Overwrite. */
const folio = folioForThisFile();

test('a second editor changes the entry meanwhile: 412 names them; Reload takes theirs, Overwrite keeps mine', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  const other = await newMember(folio(), site, 'editor');
  const hero = await entryOf(folio(), site, HOME, 'hero');
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  const form = page.getByRole('region', { name: 'hero' });

  // Reload: their change wins, mine is dropped.
  await form.getByLabel('title').fill('Mine');
  await patchEntry(folio(), site, other.token, hero.id, { fields: { title: 'Theirs' } });
  await form.getByRole('button', { name: 'Save draft' }).click();
  const conflict = form.getByRole('alert');
  await expect(conflict).toContainText('changed by someone else');
  await expect(conflict).toContainText(other.email);
  await screenshot(page, 'conflict');
  expect((await entryOf(folio(), site, HOME, 'hero')).fields.title).toBe('Theirs');
  await conflict.getByRole('button', { name: 'Reload' }).click();
  await expect(form.getByLabel('title')).toHaveValue('Theirs');
  await expect(form.getByText('unsaved changes')).toHaveCount(0);

  // Overwrite: mine is written over their newer version.
  await form.getByLabel('title').fill('Mine after all');
  await patchEntry(folio(), site, other.token, hero.id, { fields: { title: 'Theirs again', count: 3 } });
  await form.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(form.getByRole('alert')).toContainText(other.email);
  await form.getByRole('alert').getByRole('button', { name: 'Overwrite' }).click();
  await expect(form.getByRole('alert')).toHaveCount(0);
  const saved = await entryOf(folio(), site, HOME, 'hero');
  expect(saved.fields).toMatchObject({ title: 'Mine after all', count: 3 });
  expect(saved.status).toBe('published');
});

test('leaving with unsaved changes asks first (router blocker); Stay keeps them, Leave drops them', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  const form = page.getByRole('region', { name: 'footer' });
  await form.getByLabel('note').fill('Not saved yet');

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Media' }).click();
  const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect(form.getByLabel('note')).toHaveValue('Not saved yet');

  // Closing the tab or reloading asks through the browser (beforeunload).
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.type();
    void dialog.dismiss();
  });
  await page.reload({ timeout: 3_000 }).catch(() => undefined);
  await expect.poll(() => asked).toBe('beforeunload');
  await expect(form.getByLabel('note')).toHaveValue('Not saved yet');

  await nav.getByRole('link', { name: 'Media' }).click();
  await ask.getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
  await nav.getByRole('link', { name: 'Pages' }).click();
  await page.getByRole('link', { name: HOME, exact: true }).click();
  await expect(page.getByRole('region', { name: 'footer' }).getByLabel('note')).toHaveValue('');
});
