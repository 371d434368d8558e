import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, HANDS, type Hand, press, signIn, tabTo, test } from './support/fixtures';
import { api, folioForThisFile, newMember, newSite, PASSWORD, signInApi, uniqueEmail } from './support/folio';

/**
 * Issue 37 (contract §15): "Change password" for everyone; "Invite" gives the admin a link to hand over
 * instead of a password; "Reset password" for admins; the set-password screen the link opens.
 */
const folio = folioForThisFile();
const NEW_PASSWORD = 'a brand new long passphrase';
/** "New password" (with the required mark), not "New password again". */
const NEW_FIELD = /^New password\W*$/;

/** Types into a field as `hand` would reach it: a click, or Tab to it. */
async function typeInto(page: Page, field: ReturnType<Page['getByLabel']>, text: string, hand: Hand) {
  if (hand === 'mouse') await field.click();
  else await tabTo(page, field);
  await page.keyboard.type(text);
}

/** The invitee, in a browser of their own, opens the link and chooses a password. */
async function useLink(browser: Browser, link: string, password: string, hand: Hand) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  expect(page.url()).not.toContain('cms_sp_'); // the token leaves the address bar once read
  await typeInto(page, page.getByLabel(NEW_FIELD), password, hand);
  await typeInto(page, page.getByLabel('New password again'), 'something else', hand);
  await press(page, page.getByRole('button', { name: 'Set password and sign in' }), hand);
  await expect(page.getByText('The two passwords differ')).toBeVisible();
  await page.getByLabel('New password again').fill('');
  await typeInto(page, page.getByLabel('New password again'), password, hand);
  await expectAccessible(page);
  await press(page, page.getByRole('button', { name: 'Set password and sign in' }), hand);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return { context, page };
}

for (const hand of HANDS) {
  test(`by ${hand}: Invite gives a link to hand over; it sets the invitee's password and signs them in, once`, async ({
    page,
    browser,
  }) => {
    const site = await newSite(folio());
    const invited = uniqueEmail('invited');
    await page.goto(`${folio().admin}/p/${site.projectId}/users`);
    await signIn(page, site.admin.email);
    await typeInto(page, page.getByRole('textbox', { name: 'Email' }), invited, hand);
    await expect(page.getByLabel(/password/i)).toHaveCount(0); // no password for the admin to type
    await press(page, page.getByRole('button', { name: 'Invite' }), hand);
    const field = page.getByRole('textbox', { name: `Set-password link for ${invited}` });
    await expect(field).toBeVisible();
    await expect(page.getByText(`Hand this link to ${invited} yourself`)).toBeVisible();
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${folio().admin}/set-password#token=cms_sp_`));
    await expectAccessible(page);
    await press(page, page.getByRole('button', { name: 'I have copied it' }), hand);
    await expect(field).toHaveCount(0);

    const invitee = await useLink(browser, link, NEW_PASSWORD, hand);
    await expect(invitee.page.getByText(invited)).toBeVisible();
    await invitee.context.close();
    await signInApi(folio(), invited, NEW_PASSWORD);

    // A second use: the link's own answer, in plain words.
    const again = await browser.newContext();
    const tab = await again.newPage();
    await tab.goto(link);
    await tab.getByLabel(NEW_FIELD).fill('yet another passphrase');
    await tab.getByLabel('New password again').fill('yet another passphrase');
    await press(tab, tab.getByRole('button', { name: 'Set password and sign in' }), hand);
    await expect(tab.getByRole('alert')).toContainText('already used or expired');
    await again.close();
  });

  test(`by ${hand}: an admin's Reset password gives a link; the member's new password replaces the old`, async ({
    page,
    browser,
  }) => {
    const site = await newSite(folio());
    const member = await newMember(folio(), site, 'editor');
    await page.goto(`${folio().admin}/p/${site.projectId}/users`);
    await signIn(page, site.admin.email);
    const members = page.getByRole('table', { name: 'Members' });
    await expect(members.getByRole('button', { name: `Reset password of ${site.admin.email}` })).toHaveCount(
      0,
    );
    await press(page, members.getByRole('button', { name: `Reset password of ${member.email}` }), hand);
    const confirm = page.getByRole('dialog', { name: `Reset the password of ${member.email}?` });
    await press(page, confirm.getByRole('button', { name: 'Make a link' }), hand);
    const link = await page
      .getByRole('textbox', { name: `Set-password link for ${member.email}` })
      .inputValue();
    expect(link).toContain('/admin/set-password#token=cms_sp_');
    await expectAccessible(page);

    const used = await useLink(browser, link, NEW_PASSWORD, hand);
    await used.context.close();
    await signInApi(folio(), member.email, NEW_PASSWORD);
    await expect(signInApi(folio(), member.email, PASSWORD)).rejects.toThrow(/401/);
  });

  test(`by ${hand}: Change password for an editor: a wrong current password is said at its field; the right one signs out other sessions`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    const editor = await newMember(folio(), site, 'editor');
    await page.goto(`${folio().admin}/p/${site.projectId}/pages`);
    await signIn(page, editor.email);
    await press(page, page.getByRole('button', { name: 'Change password' }), hand);
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await typeInto(page, dialog.getByLabel('Current password'), 'not my password', hand);
    await typeInto(page, dialog.getByLabel(NEW_FIELD), NEW_PASSWORD, hand);
    await typeInto(page, dialog.getByLabel('New password again'), NEW_PASSWORD, hand);
    await press(page, dialog.getByRole('button', { name: 'Change password' }), hand);
    await expect(dialog.getByLabel('Current password')).toHaveAccessibleDescription(
      /This is not your current password\./,
    );
    // Still signed in: that 401 was about the password, not the session.
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expectAccessible(page);

    await dialog.getByLabel('Current password').fill('');
    await typeInto(page, dialog.getByLabel('Current password'), PASSWORD, hand);
    await press(page, dialog.getByRole('button', { name: 'Change password' }), hand);
    await expect(page.getByText('Password changed. Your other sessions were signed out.')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const me = await fetch(`${folio().url}/v1/auth/me`, {
      headers: { authorization: `Bearer ${editor.token}` },
    });
    expect(me.status).toBe(401); // the session made by newMember() is over
    await signInApi(folio(), editor.email, NEW_PASSWORD);
    // This tab's session goes on.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
    expect(
      await api(folio(), 'GET', '/v1/auth/me', {
        token: await signInApi(folio(), editor.email, NEW_PASSWORD),
      }),
    ).toBeTruthy();
  });
}
