import { randomBytes } from 'node:crypto';
import type { Schemas } from '@folio/client';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { api, entryOf, folioForThisFile, newMember, newSite, patchEntry, syncPage } from './support/folio';
import { startReceiver } from './support/receiver';

/**
 * Workflow 11: project settings — name, domains, CDN URL, baking, definition sync; deploy hooks (a secret
 * shows only as "set") and the deploys they make, against a local receiver; rotate the publishable key.
 */
const folio = folioForThisFile({ CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true', CMS_DEPLOY_DEBOUNCE_MS: '300' });

type ProjectData = Schemas['Project'];

test('settings saved; deploy hooks with write-only secrets and the deploys list; the key rotated', async ({
  page,
}) => {
  const receiver = await startReceiver();
  try {
    const site = await newSite(folio(), 'Bakery');
    await syncPage(folio(), site, '/', [
      { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] },
    ]);
    const project = () =>
      api<ProjectData>(folio(), 'GET', `/v1/projects/${site.projectId}`, { token: site.admin.token });
    await page.goto(`${folio().admin}/p/${site.projectId}/settings`);
    await signIn(page, site.admin.email);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

    // The project: name, domains, CDN URL, baking (the kill switch), definition sync.
    await page.getByRole('textbox', { name: /^Name/ }).fill('Corner Bakery');
    const domains = page.getByRole('textbox', { name: 'Domains' });
    await domains.fill('example.com');
    await domains.press('Enter');
    await domains.fill('localhost:5173');
    await domains.press('Enter');
    await domains.fill('not a host!');
    await domains.press('Enter');
    await page.getByRole('textbox', { name: 'CDN URL' }).fill('https://cdn.example.com/');
    await expect(page.getByRole('switch', { name: 'Baking' })).toBeChecked();
    await expect(page.getByText(/kill switch/)).toBeVisible();
    await page.getByRole('switch', { name: 'Baking' }).uncheck();
    await expect(page.getByRole('radio', { name: 'Additive' })).toBeChecked();
    await page.getByRole('radio', { name: 'Locked' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Not a host name: not a host!')).toBeVisible();
    await domains.press('Backspace'); // takes the last tag off
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    const saved = await project();
    expect(saved).toMatchObject({
      name: 'Corner Bakery',
      domains: ['example.com', 'localhost:5173'],
      cdnUrl: 'https://cdn.example.com',
      bakeEnabled: false,
      definitionSync: 'locked',
    });
    await expect(page.getByRole('textbox', { name: 'Project' })).toHaveValue('Corner Bakery');
    // Locked: the site's own key may no longer change definitions.
    await expect(syncPage(folio(), site, '/about', [])).rejects.toThrow(/403/);

    // Deploy hooks: a signed generic one and a GitHub dispatch with its token.
    const whsec = `whsec_${randomBytes(32).toString('base64')}`;
    await page.getByRole('button', { name: 'Add deploy hook' }).click();
    const first = page.getByRole('group', { name: 'Deploy hook 1' });
    await first.getByRole('textbox', { name: /^Hook id/ }).fill('netlify');
    await first.getByRole('textbox', { name: /^Hook URL/ }).fill(`${receiver.url}/deploy`);
    await first.getByLabel('Secret').fill(whsec);
    await page.getByRole('button', { name: 'Add deploy hook' }).click();
    const second = page.getByRole('group', { name: 'Deploy hook 2' });
    await second.getByRole('textbox', { name: /^Hook id/ }).fill('github');
    await second.getByRole('combobox', { name: 'Type' }).selectOption('github_repository_dispatch');
    await second
      .getByRole('textbox', { name: /^Hook URL/ })
      .fill(`${receiver.url}/repos/acme/site/dispatches`);
    await second.getByLabel('Secret').fill('ghp_token_for_tests');
    await page.getByRole('button', { name: 'Save deploy hooks' }).click();
    await expect(page.getByText('Deploy hooks saved')).toBeVisible();
    await expect(first.getByText('set', { exact: true })).toBeVisible();
    await expect(second.getByText('set', { exact: true })).toBeVisible();
    await expect(first.getByRole('textbox', { name: /^Hook id/ })).toHaveAttribute('readonly', '');
    expect((await project()).deployHooks).toEqual([
      { id: 'netlify', type: 'generic', url: `${receiver.url}/deploy`, hasSecret: true },
      {
        id: 'github',
        type: 'github_repository_dispatch',
        url: `${receiver.url}/repos/acme/site/dispatches`,
        hasSecret: true,
      },
    ]);

    // A publish calls both; the deploys list shows each call.
    const hero = await entryOf(folio(), site, '/', 'hero');
    await patchEntry(folio(), site, site.admin.token, hero.id, {
      fields: { title: 'Fresh' },
      status: 'published',
    });
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
    const github = receiver.received.find((r) => r.path.includes('dispatches'))!;
    expect(github.headers.authorization).toBe('Bearer ghp_token_for_tests');
    const generic = receiver.received.find((r) => r.path === '/deploy')!;
    expect(generic.headers['webhook-signature']).toMatch(/^v1,/);
    await page.reload();
    const deploys = page.getByRole('table', { name: 'Deploys' });
    await expect(deploys.getByRole('row', { name: /^netlify/ })).toContainText('succeeded');
    await expect(deploys.getByRole('row', { name: /^github/ })).toContainText('succeeded');
    await expect(deploys.getByRole('row', { name: /^netlify/ })).toContainText('content.published');
    // After the reload the secrets still show only as set.
    await expect(page.getByText(whsec)).toHaveCount(0);
    await expect(page.locator(`input[value="${whsec}"]`)).toHaveCount(0);
    await expectAccessible(page);
    await screenshot(page, 'settings');

    // Clear the generic hook's secret, keep the other's.
    await page
      .getByRole('group', { name: 'Deploy hook 1' })
      .getByRole('button', { name: 'Clear secret' })
      .click();
    await page.getByRole('button', { name: 'Save deploy hooks' }).click();
    await expect
      .poll(async () => (await project()).deployHooks.map((h) => h.hasSecret))
      .toEqual([false, true]);

    // Rotate the publishable key: confirmed, the new one shown, the old one refused.
    const oldKey = (await project()).apiKey;
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate the publishable key?' })
      .getByRole('button', { name: 'Rotate key' })
      .click();
    await expect(page.getByText('New key in place')).toBeVisible();
    const newKey = await page.getByRole('textbox', { name: 'Publishable key' }).inputValue();
    expect(newKey).toMatch(/^cms_pk_/);
    expect(newKey).not.toBe(oldKey);
    expect((await project()).apiKey).toBe(newKey);
    expect((await fetch(`${folio().url}/v1/content/%2F`, { headers: { 'x-cms-key': oldKey } })).status).toBe(
      401,
    );
    expect((await fetch(`${folio().url}/v1/content/%2F`, { headers: { 'x-cms-key': newKey } })).status).toBe(
      200,
    );
  } finally {
    await receiver.close();
  }
});

test('an editor is told settings are for admins', async ({ page }) => {
  const site = await newSite(folio());
  const editor = await newMember(folio(), site, 'editor');
  await page.goto(`${folio().admin}/p/${site.projectId}/settings`);
  await signIn(page, editor.email);
  await expect(page.getByText('Admins only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rotate key' })).toHaveCount(0);
  await expectAccessible(page);
});
