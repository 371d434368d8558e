import { expect, sessionToken, signIn, test } from './support/fixtures';
import { entryOf, folioForThisFile, newSite } from './support/folio';
import { HOME, homePage } from './support/page-fixture';

/** Workflow 1: the session ends under the editor's feet; nothing they typed is lost. */
const folio = folioForThisFile();

test('an expired session brings the sign-in back without losing unsaved text, which then saves', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  const hero = page.getByRole('region', { name: 'hero' });
  await hero.getByLabel('title').fill('Typed before the session ended');
  await hero.getByRole('textbox', { name: 'body' }).click();
  await page.keyboard.type('Rich words survive too.');

  // The session ends elsewhere (as at expiry): the server forgets the token the tab holds.
  const token = await sessionToken(page);
  expect(token).toBeTruthy();
  const logout = await fetch(`${folio().url}/v1/auth/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(logout.status).toBe(200);

  await hero.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Your session has ended');
  expect(page.url()).toContain(`/p/${site.projectId}/pages/`);
  expect((await entryOf(folio(), site, HOME, 'hero')).fields.title).toBeUndefined();

  await signIn(page, site.admin.email);
  const again = page.getByRole('region', { name: 'hero' });
  await expect(again.getByLabel('title')).toHaveValue('Typed before the session ended');
  await expect(again.getByRole('textbox', { name: 'body' })).toContainText('Rich words survive too.');
  await expect(again.getByText('Unsaved changes from before were restored.')).toBeVisible();
  await again.getByRole('button', { name: 'Save draft' }).click();
  await expect(again.getByText('unsaved changes')).toHaveCount(0);
  const saved = await entryOf(folio(), site, HOME, 'hero');
  expect(saved.fields.title).toBe('Typed before the session ended');
  expect(String(saved.fields.body)).toContain('Rich words survive too.');
});

test('a reload keeps the session and the unsaved text of the page', async ({ page }) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  await page.getByRole('region', { name: 'footer' }).getByLabel('note').fill('Kept across a reload');
  page.once('dialog', (dialog) => void dialog.accept()); // the browser asks first (beforeunload)
  await page.reload();
  await expect(page.getByRole('region', { name: 'footer' }).getByLabel('note')).toHaveValue(
    'Kept across a reload',
  );
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});
