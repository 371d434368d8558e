import { expect, screenshot, signIn, test } from './support/fixtures';
import { entryOf, folioForThisFile, newMember, newSite, patchEntry, visitorEntries } from './support/folio';
import { HOME, homePage } from './support/page-fixture';

/** Workflow 4: versions with actor and time, a diff against the working copy, Restore. */
const folio = folioForThisFile();

test('history lists each version with who and when, diffs it against the working copy, and restores it', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  const other = await newMember(folio(), site, 'editor');
  const hero = await entryOf(folio(), site, HOME, 'hero');
  await patchEntry(folio(), site, site.admin.token, hero.id, {
    fields: { title: 'First title', count: 1 },
    status: 'published',
  });
  await patchEntry(folio(), site, other.token, hero.id, {
    fields: { title: 'Second title' },
    status: 'published',
  });
  await patchEntry(folio(), site, other.token, hero.id, { fields: { title: 'Working title' } });

  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  await page.getByRole('region', { name: 'hero' }).getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('heading', { name: 'History of hero' })).toBeVisible();

  const versions = page.getByRole('region', { name: /^Version of / });
  await expect(versions).toHaveCount(2);
  // Newest first, each with its actor.
  await expect(versions.nth(0)).toContainText(other.email);
  await expect(versions.nth(0)).toContainText('Second title');
  await expect(versions.nth(1)).toContainText(site.admin.email);
  await expect(versions.nth(1)).toContainText('First title');
  // Field by field against the working copy: title differs, count does not.
  const titleRow = versions.nth(1).getByRole('row', { name: /^title/ });
  await expect(titleRow).toContainText('changed');
  await expect(titleRow).toContainText('Working title');
  await expect(versions.nth(1).getByRole('row', { name: /^count/ })).toContainText('same');
  await screenshot(page, 'history');

  await versions.nth(1).getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Restored into the working copy')).toBeVisible();
  const restored = await entryOf(folio(), site, HOME, 'hero');
  expect(restored.fields).toMatchObject({ title: 'First title', count: 1 });
  // Restoring is a draft: visitors still see the last published copy.
  expect((await visitorEntries(folio(), site, HOME))[0]?.fields.title).toBe('Second title');
  await expect(versions.nth(1).getByRole('row', { name: /^title/ })).toContainText('same');

  // Restore meets If-Match too: someone else's change since is a conflict, named.
  await patchEntry(folio(), site, other.token, hero.id, { fields: { title: 'Changed meanwhile' } });
  await versions.nth(0).getByRole('button', { name: 'Restore' }).click();
  const conflict = page.getByRole('alert').filter({ hasText: 'changed by someone else' });
  await expect(conflict).toContainText(other.email);
  await conflict.getByRole('button', { name: 'Overwrite' }).click();
  await expect(conflict).toHaveCount(0);
  expect((await entryOf(folio(), site, HOME, 'hero')).fields.title).toBe('Second title');
});
