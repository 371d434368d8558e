import { expect, expectAccessible, signIn, test } from './support/fixtures';
import { api, editorEntries, folioForThisFile, newSite, syncPage } from './support/folio';
import { HOME, homePage } from './support/page-fixture';

/** Workflow 3: an admin deletes a whole page (DELETE /v1/pages/:pageId), confirmed, then the pages list. */
const folio = folioForThisFile();

test('an admin deletes a page: the confirmation names it and its entry count, then the pages list', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  await syncPage(folio(), site, '/about', [{ componentId: 'Text', instanceKey: 'text', fields: [] }]);
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  // Unsaved text on the page: deleting it must not ask "Leave without saving?" nor keep the draft.
  await page.getByRole('region', { name: 'footer' }).getByLabel('note').fill('Never saved');

  const actions = page.getByRole('group', { name: 'Page actions' });
  await actions.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: `Delete the page ${HOME}?` });
  await expect(confirm).toContainText('and its 2 entries');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'hero' })).toBeVisible();

  await actions.getByRole('button', { name: 'Delete', exact: true }).click();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/p/${site.projectId}/pages$`));
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: '/about', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: HOME, exact: true })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Leave without saving?' })).toHaveCount(0);
  expect(await editorEntries(folio(), site, HOME)).toEqual([]);
  expect(await editorEntries(folio(), site, '/about')).toHaveLength(1);
  const kept = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.includes('draft')));
  expect(kept).toEqual([]);
});

test('a page deleted meanwhile: the refusal shows in the dialog as an alert', async ({ page }) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  await expect(page.getByRole('region', { name: 'hero' })).toBeVisible();
  await api(folio(), 'DELETE', `/v1/pages/${encodeURIComponent(HOME)}`, {
    token: site.admin.token,
    key: site.apiKey,
  });

  await page.getByRole('group', { name: 'Page actions' }).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete the page ${HOME}?` });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(confirm.getByRole('alert')).toBeVisible();
  await expect(confirm).toBeVisible();
});
