import type { Page } from '@playwright/test';
import { expect, sessionToken, signIn, test } from './support/fixtures';
import { entryOf, type Folio, folioForThisFile, newSite } from './support/folio';
import { HOME, homePage, PNG } from './support/page-fixture';

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

/** Counts each time the sign-in of an ended session is put on screen (one subtree added per showing). */
async function countSignInShown(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __signInShown: number };
    w.__signInShown = 0;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node.textContent?.includes('Your session has ended')) w.__signInShown++;
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __signInShown: number }).__signInShown);
}

/** Ends the tab's session on the server, as an expiry would. */
async function endSession(page: Page, f: Folio) {
  const token = await page.evaluate(() => sessionStorage.getItem('folio.session'));
  const logout = await fetch(`${f.url}/v1/auth/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(logout.status).toBe(200);
}

test('an ended session met anywhere (reads of a screen, a save, an upload) brings the sign-in once, and no error', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  const shown = await countSignInShown(page);
  const authMe: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/auth/me') authMe.push(r.url());
  });
  await page.goto(`${folio().admin}/p/${site.projectId}/pages`);
  await signIn(page, site.admin.email);
  await expect(page.getByRole('table', { name: 'Site pages' })).toBeVisible();

  // 1. Reads: Activity asks for the log and the members at once; both meet a 401.
  await endSession(page, folio());
  await page.getByRole('navigation').getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Your session has ended');
  await page.waitForTimeout(500); // any later 401 of the same session has landed
  expect(await shown()).toBe(1);
  await signIn(page, site.admin.email);
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // 2. A write: Save draft meets a 401; the form says nothing of it after signing in again.
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  const footer = page.getByRole('region', { name: 'footer' });
  await footer.getByLabel('note').fill('Kept');
  await endSession(page, folio());
  await footer.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForTimeout(500);
  expect(await shown()).toBe(1); // counted since the page loaded
  await signIn(page, site.admin.email);
  await expect(page.getByRole('region', { name: 'footer' }).getByLabel('note')).toHaveValue('Kept');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // 3. An upload (XMLHttpRequest, outside the generated client) goes through the same handling: one
  // request, no extra call to find out, the sign-in once.
  await page.goto(`${folio().admin}/p/${site.projectId}/media`);
  await expect(page.getByRole('button', { name: 'Upload' })).toBeVisible();
  await endSession(page, folio());
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/media/upload') uploads.push(r.url());
  });
  const before = authMe.length;
  await page.getByLabel('Image files').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForTimeout(500);
  expect(await shown()).toBe(1);
  expect(uploads).toHaveLength(1);
  expect(authMe.length).toBe(before);
});
