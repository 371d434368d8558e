import type { Frame, Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { api, entryOf, folioForThisFile, newSite, patchEntry, type Site, syncPage } from './support/folio';
import { startPreviewSite } from './support/preview-site';

/**
 * Visual editing (issue 16), the dashboard's end: the project's preview URL in Settings, and the page
 * screen's preview pane talking to a site on another origin (test/support/preview-site.ts plays the
 * site's end of BRIDGE.md). The real SDK and example site are tested in examples/site/test.
 */
const folio = folioForThisFile();

const COMPONENTS = [
  { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] },
  { componentId: 'Footer', instanceKey: 'footer', fields: [{ key: 'title', type: 'text' }] },
];

async function setPreviewUrl(site: Site, previewUrl: string | null) {
  await api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
    token: site.admin.token,
    body: { previewUrl },
  });
}

type Received = { type: string; [key: string]: unknown }[];
const receivedBy = (frame: Frame) =>
  frame.evaluate(() => (window as unknown as { received: Received }).received);

/** The frame of the preview pane (the page's only frame). */
function paneFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f !== page.mainFrame());
  if (!frame) throw new Error('no preview frame');
  return frame;
}

test('Settings: the preview URL is saved, cleared, and a refused one says why', async ({ page }) => {
  const site = await newSite(folio());
  await page.goto(`${folio().admin}/p/${site.projectId}/settings`);
  await signIn(page, site.admin.email);
  const field = page.getByRole('textbox', { name: 'Preview URL' });
  await expect(field).toHaveValue('');
  await expect(page.getByText(/with \{pageId\} where the page's id goes/)).toBeVisible();

  await field.fill('https://example.com/no-placeholder');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(
    page.getByText('An http(s) address with {pageId} where the page goes, or empty'),
  ).toBeVisible();

  // Passes the form's check; the server refuses credentials and says so in an alert.
  await field.fill('https://user:secret@example.com{pageId}');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('alert')).toContainText('The preview URL must not contain credentials.');

  await field.fill('http://localhost:3000{pageId}?x=1');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  const saved = await api<{ previewUrl: string | null }>(folio(), 'GET', `/v1/projects/${site.projectId}`, {
    token: site.admin.token,
  });
  expect(saved.previewUrl).toBe('http://localhost:3000{pageId}?x=1');
  await page.reload();
  await expect(field).toHaveValue('http://localhost:3000{pageId}?x=1');
  await expectAccessible(page);

  await field.fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await api<{ previewUrl: string | null }>(folio(), 'GET', `/v1/projects/${site.projectId}`, {
            token: site.admin.token,
          })
        ).previewUrl,
    )
    .toBeNull();
});

test('the pane shows the site, which gets a working preview token over postMessage; select, draft and highlight', async ({
  page,
}) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '/', COMPONENTS);
  const hero = await entryOf(folio(), site, '/', 'hero');
  const footer = await entryOf(folio(), site, '/', 'footer');
  await patchEntry(folio(), site, site.admin.token, hero.id, {
    fields: { title: 'Live title' },
    status: 'published',
  });
  await patchEntry(folio(), site, site.admin.token, hero.id, { fields: { title: 'Draft title' } });
  await patchEntry(folio(), site, site.admin.token, footer.id, { fields: { title: 'Footer note' } });
  const siteServer = await startPreviewSite(folio().url, site.apiKey);
  try {
    // Without a preview URL: the toggle shows a way to Settings.
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);
    const toggle = page.getByRole('button', { name: 'Preview' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    const pane = page.getByRole('complementary', { name: 'Preview' });
    await expect(pane).toContainText('No preview URL is set for this project.');
    await expect(pane.getByRole('link', { name: 'Set one in Settings' })).toHaveAttribute(
      'href',
      `/admin/p/${site.projectId}/settings`,
    );
    await screenshot(page, 'preview-unset');

    await setPreviewUrl(site, `${siteServer.origin}/site{pageId}`);
    const tokens: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/preview-tokens')) tokens.push(request.method());
    });
    await page.reload();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true'); // shown at once when a URL is set
    const iframe = page.getByTitle('Preview of /');
    await expect(iframe).toHaveAttribute('src', `${siteServer.origin}/site/`);
    await expect(pane.getByRole('status')).toContainText('Connected');

    // The site read the page with its token: the working copies, drafts included.
    const frame = page.frameLocator('iframe[title="Preview of /"]');
    await expect(frame.getByRole('heading', { name: 'Draft title' })).toBeVisible();
    await expect(frame.getByRole('heading', { name: 'Footer note' })).toBeVisible();
    const init = (await receivedBy(paneFrame(page))).find((m) => m.type === 'init');
    expect(init).toMatchObject({ folio: 'bridge', v: 1, pageId: '/' });
    const token = String(init?.previewToken);
    expect(token).toMatch(/^cms_pv_/);
    expect(tokens).toEqual(['POST']); // one token, however many hellos
    // The token works on its own (drafts with it, published copies without) and is in no URL.
    const withToken = await api<{ fields: { title: string } }[]>(folio(), 'GET', '/v1/content/%2F', {
      key: site.apiKey,
      headers: { 'x-cms-preview': token },
    });
    expect(withToken.map((e) => e.fields.title)).toContain('Draft title');
    const visitor = await api<{ fields: { title: string } }[]>(folio(), 'GET', '/v1/content/%2F', {
      key: site.apiKey,
    });
    expect(visitor.map((e) => e.fields.title)).toEqual(['Live title']);
    expect(paneFrame(page).url()).not.toContain(token);
    expect(page.url()).not.toContain(token);
    await expectAccessible(page);

    // A click on the Hero in the site selects its form: in view, its first field focused.
    const heroForm = page.getByRole('region', { name: 'hero' });
    await frame.getByRole('heading', { name: 'Draft title' }).click();
    await expect(heroForm).toHaveAttribute('aria-current', 'true');
    await expect(heroForm.getByLabel('title')).toBeFocused();
    await expect(heroForm).toBeInViewport();
    await expect
      .poll(async () => paneFrame(page).evaluate(() => document.body.dataset.highlight))
      .toBe(hero.id);

    // Typing shows in the site before saving: the form's working values travel as a draft.
    await page.keyboard.press('End');
    await page.keyboard.type(' and more');
    await expect(frame.getByRole('heading', { name: 'Draft title and more' })).toBeVisible();
    const drafts = (await receivedBy(paneFrame(page))).filter((m) => m.type === 'draft');
    expect(drafts.at(-1)).toEqual({
      folio: 'bridge',
      v: 1,
      type: 'draft',
      entryId: hero.id,
      fields: { title: 'Draft title and more' },
    });
    expect((await entryOf(folio(), site, '/', 'hero')).fields.title).toBe('Draft title'); // not saved
    await screenshot(page, 'preview-pane');

    // Focus in another form outlines that component.
    await page.getByRole('region', { name: 'footer' }).getByLabel('title').focus();
    await expect
      .poll(async () => paneFrame(page).evaluate(() => document.body.dataset.highlight))
      .toBe(footer.id);
    await expect(page.getByRole('region', { name: 'footer' })).toHaveAttribute('aria-current', 'true');

    // Publish works as everywhere; the toggle hides the pane.
    await heroForm.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByText('hero: published')).toBeVisible();
    expect((await entryOf(folio(), site, '/', 'hero')).fields.title).toBe('Draft title and more');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(iframe).toHaveCount(0);
  } finally {
    await siteServer.close();
  }
});

test('the site is sent a new token in a new init before its token expires', async ({ page }) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '/', COMPONENTS);
  const siteServer = await startPreviewSite(folio().url, site.apiKey);
  try {
    await setPreviewUrl(site, `${siteServer.origin}/site{pageId}`);
    // The browser's clock runs as usual until it is moved ahead.
    await page.clock.install();
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);
    await expect(page.getByRole('complementary', { name: 'Preview' }).getByRole('status')).toContainText(
      'Connected',
    );
    const inits = async () => (await receivedBy(paneFrame(page))).filter((m) => m.type === 'init');
    expect(await inits()).toHaveLength(1);

    // Tokens last an hour; five minutes before the end a new one is made and sent.
    await page.clock.fastForward('55:30');
    await expect.poll(async () => (await inits()).length).toBe(2);
    const [first, second] = await inits();
    expect(second?.previewToken).toMatch(/^cms_pv_/);
    expect(second?.previewToken).not.toBe(first?.previewToken);
    const read = await api<unknown[]>(folio(), 'GET', '/v1/content/%2F', {
      key: site.apiKey,
      headers: { 'x-cms-preview': String(second?.previewToken) },
    });
    expect(read).toHaveLength(2);
  } finally {
    await siteServer.close();
  }
});

test('a frame that ends up on another origin than the preview URL is sent nothing, and no token is made', async ({
  page,
}) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '/', COMPONENTS);
  const siteServer = await startPreviewSite(folio().url, site.apiKey);
  try {
    // The preview URL's origin answers with a redirect to another origin, whose page says hello.
    await setPreviewUrl(site, `${siteServer.origin}/redirect{pageId}`);
    const tokens: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/preview-tokens')) tokens.push(request.url());
    });
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);
    const pane = page.getByRole('complementary', { name: 'Preview' });
    await expect(pane.getByRole('alert')).toContainText(
      `The page in the pane is on ${siteServer.otherOrigin}, not on the preview URL's ${siteServer.origin}`,
    );
    const frame = paneFrame(page);
    expect(new URL(frame.url()).origin).toBe(siteServer.otherOrigin);
    // It keeps saying hello (every 500 ms); the dashboard keeps ignoring it.
    await expect
      .poll(async () => frame.evaluate(() => (window as unknown as { hellos: number }).hellos))
      .toBeGreaterThanOrEqual(4);
    expect(await receivedBy(frame)).toEqual([]);
    expect(tokens).toEqual([]);
    await screenshot(page, 'preview-wrong-origin');
  } finally {
    await siteServer.close();
  }
});

test('a shared page (@site) has no preview: no frame, no token, and the pane says why', async ({ page }) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '@site', COMPONENTS);
  await setPreviewUrl(site, 'http://127.0.0.1:9/site{pageId}');
  const tokens: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/preview-tokens')) tokens.push(request.url());
  });
  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('@site')}`);
  await signIn(page, site.admin.email);
  const pane = page.getByRole('complementary', { name: 'Preview' });
  await expect(pane).toContainText('@site is a shared page');
  await expect(pane.locator('iframe')).toHaveCount(0);
  // The page's forms are there as for any page.
  await expect(page.getByRole('region', { name: 'hero' })).toBeVisible();
  expect(tokens).toEqual([]);
});
