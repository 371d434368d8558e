import type { Schemas } from '@folio/client';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import {
  api,
  asAdmin,
  folioForThisFile,
  newMember,
  newSite,
  PASSWORD,
  signInApi,
  uniqueEmail,
} from './support/folio';

/** Workflow 8: users — invite (by keyboard), change role, remove; the last admin stays (the API's 409). */
const folio = folioForThisFile();

type Member = Schemas['User'];

test('keyboard only: invite an editor; change roles; the last admin cannot be demoted or removed (409 shown); remove', async ({
  page,
}) => {
  const site = await newSite(folio(), 'Bakery');
  const invited = uniqueEmail('invited');
  await page.goto(`${folio().admin}/p/${site.projectId}/pages`);
  await signIn(page, site.admin.email);
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();

  // Keyboard only from here to the invitation.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  const email = page.getByRole('textbox', { name: 'Email' });
  for (let i = 0; i < 20 && !(await email.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(email).toBeFocused();
  await page.keyboard.type(invited);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('Grace');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('radio', { name: /^Editor/ })).toBeFocused();
  await page.keyboard.press('ArrowRight'); // Admin
  await page.keyboard.press('ArrowLeft'); // back to Editor
  await expect(page.getByRole('radio', { name: /^Editor/ })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Invite' })).toBeFocused();
  await page.keyboard.press('Enter');

  const members = page.getByRole('table', { name: 'Members' });
  const row = members.getByRole('row', { name: new RegExp(invited) });
  await expect(row).toContainText('Grace');
  await expect(row.getByRole('combobox', { name: `Role of ${invited}` })).toHaveValue('editor');
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(''); // the form is ready for the next
  // No password typed by the admin: a set-password link to hand over, which the invitee uses.
  const link = await page.getByRole('textbox', { name: `Set-password link for ${invited}` }).inputValue();
  expect(link).toMatch(/\/admin\/set-password#token=cms_sp_/);
  const token = decodeURIComponent(new URL(link).hash.replace('#token=', ''));
  await api(folio(), 'POST', '/v1/auth/set-password', { body: { token, password: PASSWORD } });
  await signInApi(folio(), invited); // the new member can sign in with the password they chose
  await expectAccessible(page);
  await screenshot(page, 'users');

  // The only admin cannot demote nor remove themselves: the API's 409, in an alert.
  const me = members.getByRole('row', { name: new RegExp(site.admin.email) });
  await me.getByRole('combobox', { name: `Role of ${site.admin.email}` }).selectOption('editor');
  await expect(page.getByRole('alert', { name: 'Role not changed' })).toContainText(/admin/i);
  await expect(me.getByRole('combobox')).toHaveValue('admin');
  await me.getByRole('button', { name: `Remove ${site.admin.email}` }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${site.admin.email}?` });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(confirm.getByRole('alert')).toContainText(/last admin|at least one admin|admin/i);
  const message = await confirm.getByRole('alert').innerText();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  const apiAnswer = await fetch(
    `${folio().url}/v1/users/${(await memberList(site)).find((m) => m.email === site.admin.email)!.id}`,
    {
      method: 'DELETE',
      headers: { authorization: `Bearer ${site.admin.token}`, 'x-cms-project-id': site.projectId },
    },
  );
  expect(apiAnswer.status).toBe(409);
  const { error } = (await apiAnswer.json()) as { error: { message: string } };
  expect(message).toContain(error.message);

  // Promote, then remove.
  await row.getByRole('combobox', { name: `Role of ${invited}` }).selectOption('admin');
  await expect
    .poll(async () => (await memberList(site)).find((m) => m.email === invited)?.role)
    .toBe('admin');
  await row.getByRole('button', { name: `Remove ${invited}` }).click();
  await page
    .getByRole('dialog', { name: `Remove ${invited}?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(row).toHaveCount(0);
  expect((await memberList(site)).map((m) => m.email)).toEqual([site.admin.email]);
});

test('an editor sees the members but no invite, role or remove controls', async ({ page }) => {
  const site = await newSite(folio());
  const editor = await newMember(folio(), site, 'editor');
  await page.goto(`${folio().admin}/p/${site.projectId}/users`);
  await signIn(page, editor.email);
  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row')).toHaveCount(3);
  await expect(page.getByText('Admins manage members')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invite' })).toHaveCount(0);
  await expect(page.getByRole('combobox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await expectAccessible(page);
});

async function memberList(site: Awaited<ReturnType<typeof newSite>>) {
  return api<Member[]>(folio(), 'GET', '/v1/users', asAdmin(site));
}
