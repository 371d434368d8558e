import type { Page } from '@playwright/test';
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
import { api, asAdmin, folioForThisFile, newSite, PASSWORD, type Site } from './support/folio';

/**
 * Issue 42 (contract §23): inviting an email that already has an account makes a pending invitation,
 * shown in the members list with a link to hand over (once) and a Cancel; the invited account accepts
 * it, signed in, at /admin/invitations/accept#token=…, and only then sees the project.
 */
const folio = folioForThisFile();

/** Types into a field as `hand` would reach it: a click, or Tab to it. */
async function typeInto(page: Page, field: ReturnType<Page['getByLabel']>, text: string, hand: Hand) {
  if (hand === 'mouse') await field.click();
  else await tabTo(page, field);
  await page.keyboard.type(text);
}

const projectsOf = async (token: string) =>
  (await api<{ projects: { id: string }[] }>(folio(), 'GET', '/v1/auth/me', { token })).projects.map(
    (p) => p.id,
  );

const members = (site: Site) =>
  api<{ email: string; status: string }[]>(folio(), 'GET', '/v1/users', asAdmin(site));

for (const hand of HANDS) {
  test(`by ${hand}: invite an existing account, copy the link; signed in as that account it accepts and sees the project`, async ({
    page,
    context,
    browser,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: folio().url });
    const site = await newSite(folio(), `Bakery ${hand}`);
    const elsewhere = await newSite(folio(), 'Elsewhere'); // its admin is the existing account
    const invitee = elsewhere.admin.email;

    await page.goto(`${folio().admin}/p/${site.projectId}/users`);
    await signIn(page, site.admin.email);
    await typeInto(page, page.getByRole('textbox', { name: 'Email' }), invitee, hand);
    await press(page, page.getByRole('button', { name: 'Invite' }), hand);

    // The link, shown once, to copy and hand over.
    const field = page.getByRole('textbox', { name: `Invitation link for ${invitee}` });
    await expect(field).toBeVisible();
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${folio().admin}/invitations/accept#token=cms_inv_`));
    await press(page, page.getByRole('button', { name: 'Copy', exact: true }), hand);
    await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // Pending in the list: no role to change, a Cancel instead.
    const row = page.getByRole('table', { name: 'Members' }).getByRole('row', { name: new RegExp(invitee) });
    await expect(row).toContainText('invited');
    await expect(row).toContainText('Invited: the link works until');
    await expect(row.getByRole('combobox')).toHaveCount(0);
    await expect(row.getByRole('button', { name: `Cancel invitation of ${invitee}` })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `invitation-pending-${hand}`);
    expect(await projectsOf(elsewhere.admin.token)).toEqual([elsewhere.projectId]); // no access yet
    await press(page, page.getByRole('button', { name: 'I have copied it' }), hand);
    await expect(field).toHaveCount(0);

    // The invitee, in a browser of their own, opens the link signed out: sign-in first, then accept.
    const theirs = await browser.newContext();
    const tab = await theirs.newPage();
    await tab.goto(link);
    await expect(tab.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await typeInto(tab, tab.getByLabel('Email'), invitee, hand);
    await typeInto(tab, tab.getByLabel('Password'), PASSWORD, hand);
    await press(tab, tab.getByRole('button', { name: 'Sign in' }), hand);
    await expect(tab.getByRole('heading', { name: 'Accept the invitation' })).toBeVisible();
    await expect(tab.getByText(`You are signed in as ${invitee}`)).toBeVisible();
    expect(tab.url()).not.toContain('cms_inv_'); // the token leaves the address bar once read
    await expectAccessible(tab);
    await screenshot(tab, `invitation-accept-${hand}`);
    await press(tab, tab.getByRole('button', { name: 'Accept invitation' }), hand);

    await expect(tab.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
    expect(new URL(tab.url()).pathname).toBe(`/admin/p/${site.projectId}/pages`);
    await expect(tab.getByText('You joined the project as an editor')).toBeVisible();
    await screenshot(tab, `invitation-accepted-${hand}`);
    await theirs.close();
    expect((await projectsOf(elsewhere.admin.token)).sort()).toEqual(
      [site.projectId, elsewhere.projectId].sort(),
    );

    // The admin's list now shows a member.
    await page.reload();
    await expect(row.getByRole('combobox', { name: `Role of ${invitee}` })).toHaveValue('editor');
    await expect(row).toContainText('Member since');
  });

  test(`by ${hand}: an admin cancels a pending invitation; its link stops working`, async ({ page }) => {
    const site = await newSite(folio(), `Cafe ${hand}`);
    const elsewhere = await newSite(folio(), 'Elsewhere');
    const invitee = elsewhere.admin.email;
    const invited = await api<{ invitationToken: string }>(folio(), 'POST', '/v1/users', {
      ...asAdmin(site),
      body: { email: invitee, role: 'admin' },
    });

    await page.goto(`${folio().admin}/p/${site.projectId}/users`);
    await signIn(page, site.admin.email);
    const row = page.getByRole('table', { name: 'Members' }).getByRole('row', { name: new RegExp(invitee) });
    await expect(row).toContainText('invited');
    await press(page, row.getByRole('button', { name: `Cancel invitation of ${invitee}` }), hand);
    const dialog = page.getByRole('dialog', { name: `Cancel the invitation of ${invitee}?` });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `invitation-cancel-${hand}`);
    await press(page, dialog.getByRole('button', { name: 'Cancel invitation' }), hand);
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);
    await expect(page.getByText(`The invitation of ${invitee} is canceled`)).toBeVisible();
    expect((await members(site)).map((m) => m.email)).toEqual([site.admin.email]);

    const res = await fetch(`${folio().url}/v1/invitations/accept`, {
      method: 'POST',
      headers: { authorization: `Bearer ${elsewhere.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token: invited.invitationToken }),
    });
    expect(res.status).toBe(401);
  });
}
