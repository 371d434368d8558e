import { expect, expectAccessible, HANDS, press, signIn, tabTo, test } from './support/fixtures';
import { folioForThisFile, newMember, newSite } from './support/folio';

/** Issue 37: one session for the tabs of a browser (and no longer), and a menu by role. */
const folio = folioForThisFile();

const ADMIN_ONLY = ['API keys', 'Webhooks', 'Settings', 'Activity'];
const EVERYONE = ['Pages', 'Media', 'Objects', 'Users'];

for (const hand of HANDS) {
  test(`by ${hand}: a link opened in a new tab shares the session; sign-out there ends it here; closing every tab ends it`, async ({
    page,
    context,
  }) => {
    const site = await newSite(folio());
    await page.goto(`${folio().admin}/p/${site.projectId}/pages`);
    await signIn(page, site.admin.email);
    await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();

    // Ctrl-click (or Ctrl+Enter on the focused link) opens Media in a new tab, signed in.
    const media = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' });
    const opened = context.waitForEvent('page');
    if (hand === 'mouse') await media.click({ modifiers: ['ControlOrMeta'] });
    else {
      await tabTo(page, media);
      await page.keyboard.press('ControlOrMeta+Enter');
    }
    const tab = await opened;
    await expect(tab.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
    await expect(tab.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
    // The token lives in each tab's sessionStorage only: nothing in localStorage outlives the tabs.
    const token = await page.evaluate(() => sessionStorage.getItem('folio.session'));
    expect(await tab.evaluate(() => sessionStorage.getItem('folio.session'))).toBe(token);
    for (const p of [page, tab]) {
      expect(await p.evaluate(() => Object.keys(localStorage))).toEqual([]);
    }
    await expectAccessible(tab);

    // Signing out in the new tab signs out the first one too (it shared that session).
    await press(tab, tab.getByRole('button', { name: 'Sign out' }), hand);
    await expect(tab.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('folio.session'))).toBeNull();

    // Signed in again in one tab, then every tab closed: a tab opened afterwards has nothing to take.
    await signIn(page, site.admin.email);
    await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
    await tab.close();
    await page.close();
    const later = await context.newPage();
    await later.goto(`${folio().admin}/p/${site.projectId}/pages`);
    await expect(later.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  test(`by ${hand}: an editor's menu has no admin-only screens; an admin's has them all`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    const editor = await newMember(folio(), site, 'editor');
    await page.goto(`${folio().admin}/p/${site.projectId}/pages`);
    await signIn(page, editor.email);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Pages', exact: true })).toBeVisible();
    for (const name of EVERYONE) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    for (const name of ADMIN_ONLY) await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
    await press(page, nav.getByRole('link', { name: 'Users', exact: true }), hand);
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await expectAccessible(page);

    await press(page, page.getByRole('button', { name: 'Sign out' }), hand);
    await signIn(page, site.admin.email);
    for (const name of [...EVERYONE, ...ADMIN_ONLY]) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await press(page, nav.getByRole('link', { name: 'Activity', exact: true }), hand);
    await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  });
}
