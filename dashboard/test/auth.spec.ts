import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { editorEntries, folioForThisFile, newSite, PASSWORD, uniqueEmail } from './support/folio';

/** Workflows 1 and 2: first run, sign in and out, a reload, a second project, switching. */
const folio = folioForThisFile();

test('first run: create a project, then sign out (every byte cleared) and in again; a reload keeps the session', async ({
  page,
}) => {
  const email = uniqueEmail('first');
  await page.goto(folio().admin);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'sign-in');

  await page.getByRole('link', { name: 'Create a project' }).click();
  await page.getByLabel('Project name').fill('Bakery');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await screenshot(page, 'create-project');
  await page.getByRole('button', { name: 'Create project' }).click();

  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
  await expect(page.getByText('No pages yet')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Pages', 'Media', 'Objects', 'Users', 'API keys', 'Webhooks', 'Settings', 'Activity']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }

  // A reload keeps the session (sessionStorage) and the address.
  const address = page.url();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
  expect(page.url()).toBe(address);
  expect(address).not.toContain('token');

  // Sign out: the server ends the session and the tab keeps nothing.
  const token = await page.evaluate(() => sessionStorage.getItem('folio.session'));
  expect(token).toBeTruthy();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const kept = await page.evaluate(() => [...Object.keys(sessionStorage), ...Object.keys(localStorage)]);
  expect(kept).toEqual([]);
  const me = await fetch(`${folio().url}/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(me.status).toBe(401);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Bakery')).toHaveCount(0);

  // A wrong password is an alert; the right one brings the projects back.
  await signIn(page, email, 'not the password');
  await expect(page.getByRole('alert')).toContainText(/email or password/i);
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
});

test('a signed-in account creates a second project and switches between them (x-cms-project-id on every call)', async ({
  page,
}) => {
  const site = await newSite(folio(), 'Alpha');
  await page.goto(folio().admin);
  await signIn(page, site.admin.email);
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Project' })).toHaveValue('Alpha');

  await page.getByRole('textbox', { name: 'Project' }).click();
  await page.getByRole('option', { name: '+ Create project…' }).click();
  await expect(page.getByLabel('Email')).toHaveValue(site.admin.email);
  await page.getByLabel('Project name').fill('Beta');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Password').fill(PASSWORD);

  const projectCalls: { url: string; project: string | null }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/') && !/^\/v1\/(auth|projects)/.test(url.pathname)) {
      projectCalls.push({ url: url.pathname, project: request.headers()['x-cms-project-id'] ?? null });
    }
  });
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('textbox', { name: 'Project' })).toHaveValue('Beta');
  await expect(page).toHaveURL(/\/admin\/p\/[^/]+\/pages$/);
  const betaId = /\/p\/([^/]+)\/pages$/.exec(page.url())?.[1];
  expect(betaId).toBeTruthy();
  expect(betaId).not.toBe(site.projectId);

  await page.getByRole('textbox', { name: 'Project' }).click();
  await page.getByRole('option', { name: 'Alpha' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/p/${site.projectId}/pages$`));
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();

  expect(projectCalls.length).toBeGreaterThan(0);
  expect(projectCalls.filter((c) => c.project === null)).toEqual([]);
  expect(projectCalls.map((c) => c.project)).toContain(betaId);
  for (const c of projectCalls) expect([betaId, site.projectId]).toContain(c.project);
  // Nothing of Alpha was created in Beta by the switch.
  expect(await editorEntries(folio(), site, '/')).toEqual([]);
});

test('every screen of the navigation opens (each loaded on demand); none is a placeholder', async ({
  page,
}) => {
  const site = await newSite(folio());
  await page.goto(`${folio().admin}/p/${site.projectId}/pages`);
  await signIn(page, site.admin.email);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Media', 'Objects', 'Users', 'API keys', 'Webhooks', 'Settings', 'Activity', 'Pages']) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
  }
  await expect(page.getByText('Coming soon')).toHaveCount(0);
});

test('keyboard only: Tab reaches every sign-in control with a visible focus ring, Enter signs in', async ({
  page,
}) => {
  const site = await newSite(folio());
  await page.goto(folio().admin);
  // The form must be on the page before the first Tab (the app renders after its script loads).
  await expect(page.getByLabel('Email')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email')).toBeFocused();
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(ring).not.toBe('none');
  await page.keyboard.type(site.admin.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
  // The navigation is reachable by keyboard too.
  const pagesLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pages' });
  await pagesLink.focus();
  await page.keyboard.press('Tab');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }),
  ).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
});
