import { expect, expectAccessible, HANDS, press, screenshot, signIn, test } from './support/fixtures';
import {
  entryOf,
  folioForThisFile,
  newMember,
  newSite,
  patchEntry,
  uploadMedia,
  visitorEntries,
} from './support/folio';
import { png } from './support/images';
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
  await page
    .getByRole('dialog', { name: 'Restore this version?' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(page.getByText('Restored into the working copy').first()).toBeVisible();
  const restored = await entryOf(folio(), site, HOME, 'hero');
  expect(restored.fields).toMatchObject({ title: 'First title', count: 1 });
  // Restoring is a draft: visitors still see the last published copy.
  expect((await visitorEntries(folio(), site, HOME))[0]?.fields.title).toBe('Second title');
  // The working copy the restore replaced ("Working title", published nowhere) is kept, newest.
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText('Draft kept by a restore');
  await expect(versions.nth(0)).toContainText('Working title');
  await expect(versions.nth(2).getByRole('row', { name: /^title/ })).toContainText('same');

  // Restore meets If-Match too: someone else's change since is a conflict, named.
  await patchEntry(folio(), site, other.token, hero.id, { fields: { title: 'Changed meanwhile' } });
  await versions.nth(1).getByRole('button', { name: 'Restore' }).click();
  await page
    .getByRole('dialog', { name: 'Restore this version?' })
    .getByRole('button', { name: 'Restore' })
    .click();
  const conflict = page.getByRole('alert').filter({ hasText: 'changed by someone else' });
  await expect(conflict).toContainText(other.email);
  await conflict.getByRole('button', { name: 'Overwrite' }).click();
  await expect(conflict).toHaveCount(0);
  expect((await entryOf(folio(), site, HOME, 'hero')).fields.title).toBe('Second title');
});

for (const hand of HANDS) {
  test(`by ${hand}: Restore asks first, keeps the unpublished draft it replaces, and Undo brings it back; the comparison reads as the page does`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await homePage(folio(), site);
    const hero = await entryOf(folio(), site, HOME, 'hero');
    const photo = await uploadMedia(folio(), site, 'loaf.png', png(60, 40, [232, 176, 75]));
    const body =
      '<h2>Opening hours</h2><p>Open <strong>daily</strong>, <a href="javascript:alert(1)">call</a> or <a href="https://example.com/map">find us</a></p><script>window.__pwned = 1</script>';
    await patchEntry(folio(), site, site.admin.token, hero.id, {
      fields: { title: 'First title', body, image: photo.url },
      status: 'published',
    });
    await patchEntry(folio(), site, site.admin.token, hero.id, {
      fields: { title: 'A third title, draft only' },
    });

    await page.goto(
      `${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}/entries/${hero.id}/history`,
    );
    await signIn(page, site.admin.email);
    const versions = page.getByRole('region', { name: /^Version of / });
    await expect(versions).toHaveCount(1);
    const first = versions.nth(0);
    // Times to the second; rich text rendered (a heading, bold), never its HTML; unsafe links as text.
    await expect(first).toContainText(/\d{1,2}:\d{2}:\d{2}/);
    await expect(first.getByRole('heading', { name: 'Opening hours' }).first()).toBeVisible();
    await expect(first).not.toContainText('<h2>');
    await expect(first.getByRole('link', { name: 'find us' }).first()).toHaveAttribute(
      'href',
      'https://example.com/map',
    );
    await expect(first.getByRole('link', { name: 'call' })).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    // An image is its picture, not its address.
    await expect(first.getByRole('img', { name: 'image, this version' })).toBeVisible();
    await expect(first.getByRole('row', { name: /^image/ })).not.toContainText('/media/');
    await expect(first.getByRole('row', { name: /^title/ })).toContainText('A third title, draft only');
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'history-compare');

    // Restore asks first; Cancel changes nothing.
    await press(page, first.getByRole('button', { name: 'Restore' }), hand);
    const confirm = page.getByRole('dialog', { name: 'Restore this version?' });
    await expect(confirm).toContainText('stays in this history');
    await press(page, confirm.getByRole('button', { name: 'Cancel' }), hand);
    await expect(confirm).toHaveCount(0);
    expect((await entryOf(folio(), site, HOME, 'hero')).fields.title).toBe('A third title, draft only');

    await press(page, first.getByRole('button', { name: 'Restore' }), hand);
    await press(page, confirm.getByRole('button', { name: 'Restore' }), hand);
    const restored = page.getByRole('status').filter({ hasText: 'Restored into the working copy' });
    await expect(restored).toBeVisible();
    expect((await entryOf(folio(), site, HOME, 'hero')).fields.title).toBe('First title');
    // The draft it replaced is in history, named as such.
    const kept = versions.filter({ hasText: 'Draft kept by a restore' });
    await expect(kept).toHaveCount(1);
    await expect(kept).toContainText('A third title, draft only');

    // Undo: the draft is the working copy again.
    await press(page, restored.getByRole('button', { name: 'Undo' }), hand);
    await expect
      .poll(async () => (await entryOf(folio(), site, HOME, 'hero')).fields.title)
      .toBe('A third title, draft only');
    await expect(restored).toHaveCount(0);
  });
}
