import { expect, expectAccessible, HANDS, press, signIn, tabTo, test } from './support/fixtures';
import { folioForThisFile, newSite } from './support/folio';
import { HOME, homePage } from './support/page-fixture';

/**
 * Issue 37: the API's `details` in plain words at the field or control they concern. This server keeps
 * the default rule for hook targets (no private addresses), as a new install does.
 */
const folio = folioForThisFile();

for (const hand of HANDS) {
  test(`by ${hand}: a field over the size limit says so at that field, in KB`, async ({ page }) => {
    const site = await newSite(folio());
    await homePage(folio(), site);
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
    await signIn(page, site.admin.email);
    const hero = page.getByRole('region', { name: 'hero' });
    const data = hero.getByLabel('data');
    await data.fill(JSON.stringify({ text: 'a'.repeat(110_000) }));
    await hero.getByLabel('title').fill('Fits');
    await press(page, hero.getByRole('button', { name: 'Save draft' }), hand);
    await expect(hero.getByRole('alert')).toContainText('Folio refused data: see below.');
    // At the field itself (its description names it), in KB rather than bytes.
    await expect(data).toHaveAccessibleDescription(/Must be at most 100 KB as JSON\./);
    await expect(hero).not.toContainText('102400');
    await expect(hero.getByLabel('title')).not.toHaveAccessibleDescription(/Must be/);
    await expectAccessible(page);
    // Fixing the field clears its message; the save goes through.
    await data.fill('{ "text": "short" }');
    await expect(data).not.toHaveAccessibleDescription(/Must be at most/);
    await press(page, hero.getByRole('button', { name: 'Save draft' }), hand);
    await expect(hero.getByText('unsaved changes')).toHaveCount(0);
  });

  test(`by ${hand}: a webhook to a local address says why it is refused and how to allow it`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await page.goto(`${folio().admin}/p/${site.projectId}/webhooks`);
    await signIn(page, site.admin.email);
    await press(page, page.getByRole('button', { name: 'Create webhook' }), hand);
    const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
    const url = dialog.getByRole('textbox', { name: /^URL/ });
    if (hand === 'keyboard') await tabTo(page, url);
    await url.fill('http://127.0.0.1:4000/folio');
    await dialog.getByRole('checkbox', { name: 'ping' }).check();
    await press(page, dialog.getByRole('button', { name: 'Create webhook' }), hand);
    await expect(url).toHaveAccessibleDescription(
      /Resolves to 127\.0\.0\.1, a loopback, private, link-local or otherwise reserved address\. .*start Folio with CMS_ALLOW_PRIVATE_HOOK_TARGETS=true/,
    );
    await expectAccessible(page);
    // Another address: the old reason goes.
    await url.fill('https://hooks.example.com/folio');
    await expect(url).not.toHaveAccessibleDescription(/CMS_ALLOW_PRIVATE_HOOK_TARGETS/);
  });

  test(`by ${hand}: a deploy hook to a local address says why at its URL field, and how to allow it`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await page.goto(`${folio().admin}/p/${site.projectId}/settings`);
    await signIn(page, site.admin.email);
    await press(page, page.getByRole('button', { name: 'Add deploy hook' }), hand);
    const hook = page.getByRole('group', { name: 'Deploy hook 1' });
    await hook.getByRole('textbox', { name: /^Hook id/ }).fill('local');
    const url = hook.getByRole('textbox', { name: /^Hook URL/ });
    await url.fill('http://127.0.0.1:4000/deploy');
    await press(page, page.getByRole('button', { name: 'Save deploy hooks' }), hand);
    await expect(url).toHaveAccessibleDescription(
      /Resolves to 127\.0\.0\.1.*CMS_ALLOW_PRIVATE_HOOK_TARGETS=true/,
    );
    await expectAccessible(page);
  });
}
