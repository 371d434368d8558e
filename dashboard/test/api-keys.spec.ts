import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { api, folioForThisFile, newMember, newSite, PASSWORD } from './support/folio';

/** Workflow 9: API keys — name, access, sites; shown once with Copy; the list with prefix and last use; revoke. */
const folio = folioForThisFile();

const useKey = (key: string, path = '/v1/objects', init: RequestInit = {}) =>
  fetch(`${folio().url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
  });

test('create keys for one site, a chosen set and every site; the key shown once with Copy; last use; revoke', async ({
  page,
  context,
}) => {
  const alpha = await newSite(folio(), 'Alpha');
  const beta = await api<{ project: { id: string } }>(folio(), 'POST', '/v1/projects', {
    body: { name: 'Beta', admin: { email: alpha.admin.email, password: PASSWORD } },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: folio().url });
  await page.goto(`${folio().admin}/p/${alpha.projectId}/api-keys`);
  await signIn(page, alpha.admin.email);
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await expect(page.getByText('No keys yet.')).toBeVisible();

  // A name is required.
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Name the key after what uses it')).toBeVisible();

  // One site, read & write (the defaults).
  await page.getByRole('textbox', { name: /^Name/ }).fill('Catalogue import');
  await expect(page.getByRole('radio', { name: 'Read & write' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'One site' })).toBeChecked();
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByLabel('Secret key “Catalogue import”');
  await expect(shown).toHaveValue(/^cms_sk_/);
  const writeKey = await shown.inputValue();
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(writeKey);
  await expect(page.getByText('It is shown only once: Folio keeps no readable copy.')).toBeVisible();
  const table = page.getByRole('table', { name: 'Your API keys' });
  const writeRow = table.getByRole('row', { name: /Catalogue import/ });
  await expect(writeRow).toContainText('Read & write');
  await expect(writeRow).toContainText('Alpha');
  await expect(writeRow).toContainText('never');
  await expect(writeRow).toContainText(`${writeKey.slice(0, 12)}…`);
  await expectAccessible(page);
  await screenshot(page, 'api-keys');
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toHaveCount(0);

  // It works on Alpha, writes objects, and reaches no other site.
  expect((await useKey(writeKey)).status).toBe(200);
  const saved = await useKey(writeKey, '/v1/objects/save', {
    method: 'POST',
    body: JSON.stringify({ objects: [{ type: 'author', id: 'ada', fields: { name: 'Ada' } }] }),
  });
  expect(saved.status).toBe(200);
  expect(
    (await useKey(writeKey, '/v1/objects', { headers: { 'x-cms-project-id': beta.project.id } })).status,
  ).toBe(403);

  // Read only, on a chosen set: Alpha and Beta.
  await page.getByRole('textbox', { name: /^Name/ }).fill('Reporting');
  await page.getByRole('radio', { name: 'Read only' }).check();
  await page.getByRole('radio', { name: 'A chosen set' }).check();
  await expect(page.getByRole('checkbox', { name: 'Alpha' })).toBeChecked();
  await page.getByRole('checkbox', { name: 'Beta' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const readKey = await page.getByLabel('Secret key “Reporting”').inputValue();
  const readRow = table.getByRole('row', { name: /Reporting/ });
  await expect(readRow).toContainText('Read only');
  await expect(readRow).toContainText('Alpha, Beta');
  const refused = await useKey(readKey, '/v1/objects/save', {
    method: 'POST',
    headers: { 'x-cms-project-id': alpha.projectId },
    body: JSON.stringify({ objects: [{ type: 'author', id: 'bob', fields: { name: 'Bob' } }] }),
  });
  expect(refused.status).toBe(403);

  // Every site I administer.
  await page.getByRole('textbox', { name: /^Name/ }).fill('Everything');
  await page.getByRole('radio', { name: 'Every site I administer' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(table.getByRole('row', { name: /Everything/ })).toContainText('Every site I administer');

  // After a reload the keys are listed by prefix only, with their last use.
  await page.reload();
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(page.getByText(writeKey)).toHaveCount(0);
  await expect(page.locator(`input[value="${writeKey}"]`)).toHaveCount(0);
  await expect(writeRow.getByRole('cell').nth(5)).not.toHaveText('never');

  // Revoke, asked first; the key stops working at once.
  await writeRow.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke “Catalogue import”?' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(writeRow).toHaveCount(0);
  expect((await useKey(writeKey)).status).toBe(401);
  expect(
    (await useKey(readKey, '/v1/objects', { headers: { 'x-cms-project-id': beta.project.id } })).status,
  ).toBe(200);
});

test('an editor is told that keys are made by admins', async ({ page }) => {
  const site = await newSite(folio());
  const editor = await newMember(folio(), site, 'editor');
  await page.goto(`${folio().admin}/p/${site.projectId}/api-keys`);
  await signIn(page, editor.email);
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await expect(page.getByText('Admins only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await expectAccessible(page);
});
