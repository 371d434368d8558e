import type { Locator, Page } from '@playwright/test';
import { expect, signIn, tabTo, test } from './support/fixtures';
import {
  api,
  asAdmin,
  entryOf,
  folioForThisFile,
  newSite,
  PASSWORD,
  patchEntry,
  uniqueEmail,
  uploadMedia,
  visitorEntries,
} from './support/folio';
import { png } from './support/images';
import { HOME, homePage } from './support/page-fixture';

/**
 * Every workflow without a mouse: Tab / Shift+Tab to a control (its focus ring visible), then Enter,
 * Space or the arrow keys. Setup goes through the API and the sign-in through the helper (its own
 * keyboard test is in auth.spec.ts); from there on no click.
 */
const folio = folioForThisFile();

const start = async (page: Page, path: string, email: string) => {
  await page.goto(`${folio().admin}${path}`);
  await signIn(page, email);
};
const screen = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** Shift+Tab back to a Mantine Select, open it with ArrowDown, move to `name`, pick it with Enter. */
async function pickOption(page: Page, select: Locator, name: string) {
  await tabTo(page, select, { back: true });
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name })).toBeVisible();
  for (
    let i = 0;
    i < 10 && (await page.getByRole('option', { selected: true }).textContent()) !== name;
    i++
  ) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(page.getByRole('option', { name, selected: true })).toBeVisible();
  await page.keyboard.press('Enter');
}

test('keyboard only: first run creates a project; the switcher creates a second and switches back', async ({
  page,
}) => {
  const email = uniqueEmail('keys');
  await page.goto(folio().admin);
  await tabTo(page, page.getByRole('link', { name: 'Create a project' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Project name'));
  await page.keyboard.type('Alpha');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(email);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();

  const switcher = page.getByRole('textbox', { name: 'Project' });
  await expect(switcher).toHaveValue('Alpha');
  await pickOption(page, switcher, '+ Create project…');
  await tabTo(page, page.getByLabel('Project name'));
  await page.keyboard.type('Beta');
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(switcher).toHaveValue('Beta');
  await expect(page).toHaveURL(/\/admin\/p\/[^/]+\/pages$/);
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();

  await pickOption(page, switcher, 'Alpha');
  await expect(switcher).toHaveValue('Alpha');
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
});

test('keyboard only: edit an entry, Save draft, Publish; schedule it; then delete the page', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  await start(page, `/p/${site.projectId}/pages`, site.admin.email);
  await tabTo(page, page.getByRole('link', { name: HOME, exact: true }));
  await page.keyboard.press('Enter');

  const footer = page.getByRole('region', { name: 'footer' });
  await tabTo(page, footer.getByLabel('note'));
  await page.keyboard.type('Closed on Mondays');
  await tabTo(page, footer.getByRole('button', { name: 'Save draft' }));
  await page.keyboard.press('Enter');
  await expect(footer.getByText('unsaved changes')).toHaveCount(0);
  expect((await entryOf(folio(), site, HOME, 'footer')).fields.note).toBe('Closed on Mondays');
  await tabTo(page, footer.getByRole('button', { name: 'Publish', exact: true }));
  await page.keyboard.press('Enter');
  await expect(footer.getByText('published', { exact: true })).toBeVisible();
  expect((await visitorEntries(folio(), site, HOME)).map((e) => e.fields.note)).toEqual([
    'Closed on Mondays',
  ]);

  // Schedule an unpublish: the radio group by arrow keys, the date typed into the native field.
  await tabTo(page, footer.getByRole('button', { name: 'Schedule' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Schedule footer' });
  await tabTo(page, dialog.getByRole('radio', { name: 'Publish', exact: true }));
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('radio', { name: 'Unpublish' })).toBeChecked();
  const when = dialog.getByLabel('Date and time');
  // Two months ahead (schedules reach a year at most), typed segment by segment as en-US shows them.
  const day = new Date(Date.now() + 60 * 86_400_000);
  const [yyyy, mm, dd] = [day.getFullYear(), day.getMonth() + 1, day.getDate()].map((n) =>
    String(n).padStart(2, '0'),
  );
  await tabTo(page, when);
  await page.keyboard.type(`${mm}${dd}${yyyy}0930AM`);
  await expect(when).toHaveValue(`${yyyy}-${mm}-${dd}T09:30`);
  await tabTo(page, dialog.getByRole('button', { name: 'Schedule' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  const list = page.getByRole('table', { name: 'Schedules of this page' });
  await expect(list.getByRole('row', { name: /Unpublish footer/ })).toContainText('pending');

  // The whole page, by keyboard too.
  await tabTo(
    page,
    page.getByRole('group', { name: 'Page actions' }).getByRole('button', { name: 'Delete' }),
    {
      back: true,
    },
  );
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: `Delete the page ${HOME}?` });
  await tabTo(page, confirm.getByRole('button', { name: 'Delete', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: HOME, exact: true })).toHaveCount(0);
});

test('keyboard only: history of an entry, Restore', async ({ page }) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  const hero = await entryOf(folio(), site, HOME, 'hero');
  await patchEntry(folio(), site, site.admin.token, hero.id, {
    fields: { title: 'First' },
    status: 'published',
  });
  await patchEntry(folio(), site, site.admin.token, hero.id, {
    fields: { title: 'Second' },
    status: 'published',
  });
  await start(page, `/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`, site.admin.email);
  await tabTo(page, page.getByRole('region', { name: 'hero' }).getByRole('link', { name: 'History' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'History of hero' })).toBeVisible();
  const older = page.getByRole('region', { name: /^Version of / }).nth(1);
  await expect(older).toContainText('First');
  await tabTo(page, older.getByRole('button', { name: 'Restore' }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Restore this version?' });
  await tabTo(page, confirm.getByRole('button', { name: 'Restore' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Restored into the working copy').first()).toBeVisible();
  expect((await entryOf(folio(), site, HOME, 'hero')).fields.title).toBe('First');
});

test('keyboard only: media details, then delete', async ({ page }) => {
  const site = await newSite(folio());
  await uploadMedia(folio(), site, 'loaf.png', png(40, 30, [232, 176, 75]));
  await start(page, `/p/${site.projectId}/pages`, site.admin.email);
  await tabTo(page, screen(page, 'Media'));
  await page.keyboard.press('Enter');
  const library = page.getByRole('list', { name: 'Media library' });
  await tabTo(page, library.getByRole('button', { name: /^loaf\.png/ }));
  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: 'loaf.png' });
  await expect(details.getByRole('row', { name: /Dimensions/ })).toContainText('40 × 30 px');
  await tabTo(page, details.getByRole('button', { name: 'Delete' }));
  await page.keyboard.press('Enter');
  await expect(details.getByText('Delete loaf.png?')).toBeVisible();
  await tabTo(page, details.getByRole('button', { name: 'Delete' }));
  await page.keyboard.press('Enter');
  await expect(details).toBeHidden();
  await expect(library.getByRole('listitem')).toHaveCount(0);
});

test('keyboard only: objects of a type, one object, delete', async ({ page }) => {
  const site = await newSite(folio());
  await api(folio(), 'POST', '/v1/objects/save', {
    ...asAdmin(site),
    body: { objects: [{ type: 'product', id: 'sku-1', fields: { title: 'Loaf' } }] },
  });
  await start(page, `/p/${site.projectId}/pages`, site.admin.email);
  await tabTo(page, screen(page, 'Objects'));
  await page.keyboard.press('Enter');
  await tabTo(
    page,
    page.getByRole('navigation', { name: 'Object types' }).getByRole('link', { name: /product/ }),
  );
  await page.keyboard.press('Enter');
  const table = page.getByRole('table', { name: 'Objects of type product' });
  await tabTo(page, table.getByRole('link', { name: 'sku-1' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: 'Fields' })).toContainText('Loaf');
  await tabTo(page, page.getByRole('button', { name: 'Delete' }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete product/sku-1?' });
  await tabTo(page, confirm.getByRole('button', { name: 'Delete' }));
  await page.keyboard.press('Enter');
  await expect(table.getByRole('row', { name: /sku-1/ })).toHaveCount(0);
});

test('keyboard only: create an API key, then revoke it', async ({ page }) => {
  const site = await newSite(folio());
  await start(page, `/p/${site.projectId}/pages`, site.admin.email);
  await tabTo(page, screen(page, 'API keys'));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Create key' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('textbox', { name: /^Name/ }));
  await page.keyboard.type('Import');
  await tabTo(page, page.getByRole('radio', { name: 'Read & write' }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: 'Read only' })).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Create key' }));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Secret key “Import”')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'I have copied it' }));
  await page.keyboard.press('Enter');
  const row = page.getByRole('table', { name: 'Your API keys' }).getByRole('row', { name: /Import/ });
  await expect(row).toContainText(/read/i);
  await tabTo(page, row.getByRole('button', { name: 'Revoke' }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Revoke “Import”?' });
  await tabTo(page, confirm.getByRole('button', { name: 'Revoke' }));
  await page.keyboard.press('Enter');
  await expect(row).toHaveCount(0);
});

test('keyboard only: create a webhook', async ({ page }) => {
  const site = await newSite(folio());
  await start(page, `/p/${site.projectId}/pages`, site.admin.email);
  await tabTo(page, screen(page, 'Webhooks'));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Create webhook' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
  await tabTo(page, dialog.getByRole('textbox', { name: /^URL/ }));
  await page.keyboard.type('https://hooks.example.com/folio');
  await tabTo(page, dialog.getByRole('checkbox', { name: 'ping' }));
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('checkbox', { name: 'ping' })).toBeChecked();
  await tabTo(page, dialog.getByRole('button', { name: 'Create webhook' }));
  await page.keyboard.press('Enter');
  const created = page.getByRole('dialog', { name: 'Webhook created' });
  await tabTo(page, created.getByRole('button', { name: 'Done' }));
  await page.keyboard.press('Enter');
  const list = page.getByRole('table', { name: 'Webhooks' });
  await expect(list.getByRole('row', { name: /hooks\.example\.com\/folio/ })).toContainText('ping');
});

test('keyboard only: project settings saved; activity filtered', async ({ page }) => {
  const site = await newSite(folio(), 'Bakery');
  await start(page, `/p/${site.projectId}/pages`, site.admin.email);
  await tabTo(page, screen(page, 'Settings'));
  await page.keyboard.press('Enter');
  const name = page.getByRole('textbox', { name: /^Name/ });
  await expect(name).toHaveValue('Bakery');
  await tabTo(page, name);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Corner Bakery');
  await tabTo(page, page.getByRole('switch', { name: 'Baking' }));
  await page.keyboard.press('Space');
  await expect(page.getByRole('switch', { name: 'Baking' })).not.toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Save settings' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Settings saved')).toBeVisible();
  const project = await api<{ name: string }>(
    folio(),
    'GET',
    `/v1/projects/${site.projectId}`,
    asAdmin(site),
  );
  expect(project.name).toBe('Corner Bakery');

  await tabTo(page, screen(page, 'Activity'), { back: true });
  await page.keyboard.press('Enter');
  const rows = page.getByRole('table', { name: 'Activity' }).getByRole('row');
  await expect(rows.nth(1)).toContainText('project.updated');
  const action = page.getByRole('combobox', { name: 'Action' });
  await tabTo(page, action);
  while ((await action.inputValue()) !== 'project.created') await page.keyboard.press('ArrowDown');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('project.created');
});
