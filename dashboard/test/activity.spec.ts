import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import {
  api,
  asAdmin,
  entryOf,
  folioForThisFile,
  newMember,
  newSite,
  patchEntry,
  syncPage,
  uploadMedia,
} from './support/folio';
import { png } from './support/images';

/** Workflow 12: the activity log (admins) — newest first, filtered by action, target and actor, a page at a time. */
const folio = folioForThisFile();

test('the log newest first; filters by action, actor and target; Load more pages back; editors are told it is for admins', async ({
  page,
}) => {
  const site = await newSite(folio(), 'Bakery');
  // 60 objects saved at once: 60 records, more than one page (50).
  await api(folio(), 'POST', '/v1/objects/save', {
    ...asAdmin(site),
    body: {
      objects: Array.from({ length: 60 }, (_, i) => ({ type: 'product', id: `p${i}`, fields: { n: i } })),
    },
  });
  const editor = await newMember(folio(), site, 'editor');
  await syncPage(folio(), site, '/', [
    { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] },
  ]);
  const hero = await entryOf(folio(), site, '/', 'hero');
  await patchEntry(folio(), site, editor.token, hero.id, {
    fields: { title: 'Fresh bread' },
    status: 'published',
  });
  await uploadMedia(folio(), site, 'loaf.png', png(20, 20, [232, 176, 75]));

  await page.goto(`${folio().admin}/p/${site.projectId}/activity`);
  await signIn(page, site.admin.email);
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  const log = page.getByRole('table', { name: 'Activity' });
  const rows = log.getByRole('row');
  await expect(rows).toHaveCount(51); // a header and the first 50
  await expect(rows.nth(1)).toContainText('media.uploaded'); // newest first
  await expect(rows.nth(1)).toContainText(site.admin.email);
  await expect(rows.nth(2)).toContainText('entry.published');
  await expect(rows.nth(2)).toContainText(editor.email);
  await expect(page.getByText('Showing 50 records; older ones remain.')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'activity');

  await page.getByRole('button', { name: 'Load more' }).click();
  // 1 project + 60 objects + 1 user + 1 sync + 1 publish + 1 upload
  await expect(rows).toHaveCount(66);
  await expect(rows.last()).toContainText('project.created');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  // Filters: action, then actor, then target.
  await page.getByRole('combobox', { name: 'Action' }).selectOption('entry.published');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(editor.email);
  await page.getByRole('combobox', { name: 'Action' }).selectOption('');
  await page.getByRole('combobox', { name: 'Actor' }).selectOption({ label: editor.email });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('entry.published');
  await page.getByRole('combobox', { name: 'Actor' }).selectOption('');
  await page.getByRole('textbox', { name: /^Target/ }).fill('product/p7');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('objects.saved');
  await expect(rows.nth(1)).toContainText('product/p7');
  await page.getByRole('textbox', { name: /^Target/ }).fill('nothing-has-this-id');
  await expect(page.getByText('Nothing matches these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(66); // the unfiltered log as it was, both pages

  // Editors may not read the log (the API answers 403): the screen says so.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto(`${folio().admin}/p/${site.projectId}/activity`);
  await signIn(page, editor.email);
  await expect(page.getByText('Admins only')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Activity' })).toHaveCount(0);
});
