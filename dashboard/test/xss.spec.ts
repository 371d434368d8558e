import { expect, signIn, test } from './support/fixtures';
import { entryOf, folioForThisFile, newSite, patchEntry } from './support/folio';
import { HOME, homePage } from './support/page-fixture';

/** Stored values are data: a script in a text or rich text field never runs in the dashboard. */
const folio = folioForThisFile();
// Tiptap parses stored HTML in an inert document (DOMParser), where Chromium reports the event handler
// attributes it met as refused by the CSP: the report is expected here, and proves nothing could run.
test.use({ allowedCspReports: [/inline event handler/] });

test('a <script> or an event handler in text and rich text fields never runs; rich text is sanitised', async ({
  page,
}) => {
  const site = await newSite(folio());
  await homePage(folio(), site);
  const hero = await entryOf(folio(), site, HOME, 'hero');
  await patchEntry(folio(), site, site.admin.token, hero.id, {
    fields: {
      title:
        '<script>window.__folioXss = "title"</script><img src=x onerror="window.__folioXss=\'title-img\'">',
      body: '<p>Kept text</p><script>window.__folioXss = "body"</script><img src="x" onerror="window.__folioXss=\'body-img\'"><a href="javascript:window.__folioXss=\'link\'">link</a>',
      legacy: '<script>window.__folioXss = "legacy"</script>',
    },
    status: 'published',
  });
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  const form = page.getByRole('region', { name: 'hero' });
  const body = form.getByRole('textbox', { name: 'body' });
  await expect(body).toContainText('Kept text');
  // The text field shows the markup as text.
  await expect(form.getByLabel('title')).toHaveValue(/<script>/);
  // Every image on the page has loaded or failed (polled each frame): an onerror would have run by now.
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));

  expect(
    await page.evaluate(() => (window as unknown as { __folioXss?: string }).__folioXss),
  ).toBeUndefined();
  expect(await body.locator('script, img, [onerror]').count()).toBe(0);
  expect(await body.locator('a[href^="javascript:"]').count()).toBe(0);
  // And what the editor saves from it is the sanitised document.
  await body.click();
  await page.keyboard.press('End');
  await page.keyboard.type(' More.');
  await form.getByRole('button', { name: 'Save draft' }).click();
  await expect(form.getByText('unsaved changes')).toHaveCount(0);
  const saved = String((await entryOf(folio(), site, HOME, 'hero')).fields.body);
  expect(saved).toContain('Kept text');
  expect(saved).not.toMatch(/<script|onerror|javascript:/i);
});
