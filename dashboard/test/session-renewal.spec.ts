import { expect, sessionToken, signIn, test } from './support/fixtures';
import { entryOf, folioForThisFile, newSite } from './support/folio';
import { HOME, homePage } from './support/page-fixture';

/**
 * Workflow 1: sessions last CMS_SESSION_TTL_SECONDS from login (60 s here, the least allowed); the
 * dashboard renews an active editor's session (POST /v1/auth/refresh) once half of it has passed, on
 * their next key or pointer press, and never on a timer. The page's clock is moved ahead rather than
 * waited for (Date only; timers keep running).
 */
const folio = folioForThisFile({ CMS_SESSION_TTL_SECONDS: '60' });

test("an active editor's session is renewed halfway through its lifetime, and their work goes on", async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  const refreshes: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/auth/refresh') refreshes.push(request.method());
  });
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  const note = page.getByRole('region', { name: 'footer' }).getByLabel('note');
  await note.pressSequentially('Typed early');
  await expect(note).toHaveValue('Typed early');
  const first = await sessionToken(page);
  expect(first).toBeTruthy();
  expect(refreshes).toEqual([]); // activity, but the session is young

  // Forty seconds later (the tab left alone meanwhile: nothing renews it by itself)...
  await page.clock.setFixedTime(Date.now() + 40_000);
  expect(refreshes).toEqual([]);
  // ...the editor types again: the session is renewed, the old token ends, the new one works.
  const renewed = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/auth/refresh');
  await note.press('End');
  expect((await renewed).status()).toBe(200);
  await expect.poll(() => sessionToken(page)).not.toBe(first);
  const second = await sessionToken(page);
  const me = (token: string | null) =>
    fetch(`${folio().url}/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then(
      (r) => r.status,
    );
  expect(await me(first)).toBe(401);
  expect(await me(second)).toBe(200);

  // Further keys do not renew again (not due for another half lifetime), and saving uses the new token.
  await note.pressSequentially(', and later');
  await page.getByRole('region', { name: 'footer' }).getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('region', { name: 'footer' }).getByText('unsaved changes')).toHaveCount(0);
  expect((await entryOf(folio(), site, HOME, 'footer')).fields.note).toBe('Typed early, and later');
  expect(refreshes).toEqual(['POST']);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});
