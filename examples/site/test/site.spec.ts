import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { editor, type Folio, newProject, type Project, startFolio } from './support/folio';
import type { Running } from './support/processes';
import { buildSite, siteDir, startBuilt, startDev } from './support/site';

/**
 * The example site's life, in order: a developer opens it (`next dev`) and its components appear in
 * Folio as stubs; an editor publishes and a reload shows it; a preview follows drafts live; a build with
 * baking off reads Folio live; a build with a baked snapshot shows the content with Folio stopped.
 * The project here has no languages set (contract §14: `locales: null`): its English pages work as a
 * one-language site did (test/languages.spec.ts walks the languages).
 */
test.describe.configure({ mode: 'serial' });

let folio: Folio;
let project: Project;
let site: Running | undefined;
let cms: ReturnType<typeof editor>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  folio = await startFolio();
  project = await newProject(folio);
  cms = editor(folio, project);
});

test.afterAll(async () => {
  await site?.stop();
  await folio?.close();
});

async function serveWith(start: () => Promise<Running>): Promise<Running> {
  await site?.stop();
  site = await start();
  return site;
}

const hero = (page: Page) => page.getByRole('heading', { level: 1 });
const products = (page: Page) => page.getByRole('region', { name: 'Our loaves' });

test('in development the page registers its components; a publish shows after a reload', async ({ page }) => {
  const dev = await serveWith(() => startDev(folio, project));
  await page.goto(dev.url);
  await expect(page).toHaveURL(`${dev.url}/en`); // the default language
  await expect(hero(page)).toHaveText('Your site, edited in Folio');
  await expect(page.getByText('Read live from Folio')).toBeVisible();

  // Mounting registered every component: Folio has their definitions and a draft stub for each.
  await expect
    .poll(async () => (await cms.definitions()).map((d) => `${d.instanceKey}:${d.componentId}`), {
      timeout: 15_000,
    })
    .toEqual(['hero:Hero', 'features:FeatureList', 'testimonials:Testimonials', 'products:ProductGrid']); // page order: as rendered
  // The menu and the footer are on the shared page @site.
  await expect
    .poll(async () => (await cms.definitions('@site')).map((d) => `${d.instanceKey}:${d.componentId}`))
    .toEqual(['menu:Menu', 'footer:Footer']);
  const definitions = await cms.definitions();
  expect(definitions.find((d) => d.instanceKey === 'hero')?.fields.map((f) => `${f.key}:${f.type}`)).toEqual([
    'title:text',
    'subtitle:text',
    'image:image',
    'ctaLabel:text',
    'ctaUrl:url',
  ]);
  expect(
    definitions.find((d) => d.instanceKey === 'features')?.fields.map((f) => `${f.key}:${f.type}`),
  ).toEqual(['heading:text', 'items:list']);
  expect((await cms.entries()).map((e) => [e.instanceKey, e.status, e.fields])).toEqual([
    ['hero', 'draft', {}],
    ['features', 'draft', {}],
    ['testimonials', 'draft', {}],
    ['products', 'draft', {}],
  ]); // page order, as the definitions

  // The editor fills the stubs and publishes; the shop's server saves its products.
  await cms.save(
    'hero',
    { title: 'Fresh bread daily', subtitle: 'Baked at dawn', ctaLabel: 'Order', ctaUrl: '/order' },
    'published',
  );
  await cms.save(
    'features',
    {
      heading: 'Why us',
      items: [{ title: 'Sourdough starter from 1987', text: 'Fed every day.' }, { title: 'Local flour' }],
    },
    'published',
  );
  await cms.save(
    'menu',
    { items: [{ label: 'Our loaves', link: { href: '#products' } }] },
    'published',
    '@site',
  );
  await cms.save('products', { heading: 'Our loaves' }, 'published');
  await cms.saveProducts([
    { id: 'sourdough', fields: { name: 'Sourdough', price: 6.5, summary: 'Three-day ferment' } },
    { id: 'baguette', fields: { name: 'Baguette', price: 2.2 } },
  ]);

  await page.reload();
  await expect(hero(page)).toHaveText('Fresh bread daily');
  await expect(page.getByRole('link', { name: 'Order' })).toHaveAttribute('href', '/order');
  await expect(page.getByRole('heading', { name: 'Sourdough starter from 1987' })).toBeVisible();
  await expect(products(page).getByRole('article', { name: 'Sourdough' })).toContainText('€6.50');
  await expect(products(page).getByRole('article')).toHaveCount(2);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Our loaves' }),
  ).toHaveAttribute('href', '#products');
});

test('with a preview token, a saved draft reaches the open page within a second, without a reload', async ({
  page,
  browser,
}) => {
  const dev = site!;
  const token = await cms.previewToken();
  const stream = page.waitForResponse((r) => r.url().startsWith(`${folio.url}/v1/live`) && r.ok());
  await page.goto(`${dev.url}/en?folio-preview=${token}`);
  await stream;
  await expect(page.getByText('Preview: drafts, updated as the editor saves')).toBeVisible();
  await expect(hero(page)).toHaveText('Fresh bread daily');
  await page.evaluate(() => {
    (window as { stillHere?: boolean }).stillHere = true;
  });

  const started = Date.now();
  await cms.save('hero', { title: 'Warm rye, today only' }, 'draft');
  await expect(hero(page)).toHaveText('Warm rye, today only', { timeout: 1000 });
  const elapsed = Date.now() - started;
  test.info().annotations.push({ type: 'draft to page', description: `${elapsed} ms` });
  expect(elapsed).toBeLessThan(1000);
  expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true);

  // A visitor still sees what is published.
  const visitor = await browser.newPage();
  await visitor.goto(dev.url);
  await expect(hero(visitor)).toHaveText('Fresh bread daily');
  await visitor.close();
});

test("in the dashboard's preview pane, the site needs no token in its URL; a click selects, never navigates", async ({
  page,
}) => {
  const dev = site!;
  // The dashboard's place: a document of Folio's own origin (the SDK's default editor origin, and the
  // one the site's frame-ancestors names) framing the site. Folio answers this path 404; the test
  // builds the pane in that document (the dashboard's own pane is the other end's to test). A real
  // answer rather than a route the browser fulfils: Chromium lets only a document from a local address
  // frame a local one.
  await page.goto(`${folio.url}/pane-of-the-test`);
  await page.evaluate((src) => {
    const received: unknown[] = [];
    Object.assign(window, { received });
    addEventListener('message', (event) => {
      const frame = document.getElementById('site') as HTMLIFrameElement;
      if (event.origin === new URL(src).origin && event.source === frame.contentWindow)
        received.push(event.data);
    });
    document.body.innerHTML = `<iframe id="site" src="${src}" width="1000" height="700"></iframe>`;
  }, `${dev.url}/en`);
  const received = (type: string) =>
    page.evaluate(
      (t) => (window as unknown as { received: { type: string }[] }).received.filter((m) => m.type === t),
      type,
    );
  const post = (message: Record<string, unknown>) =>
    page.evaluate(
      ([origin, body]) =>
        (document.getElementById('site') as HTMLIFrameElement).contentWindow?.postMessage(
          { folio: 'bridge', v: 1, ...body },
          origin,
        ),
      [dev.url, message] as const,
    );
  const frame = page.frameLocator('#site');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Fresh bread daily');
  // The site says hello every 500 ms until the pane answers (the pane's listener may come later), so a
  // slow machine may have more than one by now: each the same.
  const hello = { folio: 'bridge', v: 1, type: 'hello', pageId: '/' };
  await expect.poll(async () => (await received('hello'))[0]).toEqual(hello);
  for (const message of await received('hello')) expect(message).toEqual(hello);

  // The token travels in the message only; the page then shows drafts (the Hero's from the test above).
  await post({ type: 'init', previewToken: await cms.previewToken(), pageId: '/' });
  await expect.poll(async () => (await received('ready')).length).toBe(1);
  const heading = frame.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/^Warm rye, today only/);
  const hero = (await cms.entries()).find((e) => e.instanceKey === 'hero');
  await post({ type: 'draft', entryId: hero?.id, fields: { ...hero?.fields, title: 'Typed in the form' } });
  await expect(heading).toHaveText(/^Typed in the form/);

  // The Hero's button is a link to /order: in the pane a click selects the Hero and stays on the page.
  await frame.getByRole('link', { name: /^Order/ }).click();
  await expect
    .poll(() => received('select'))
    .toEqual([{ folio: 'bridge', v: 1, type: 'select', entryId: hero?.id, path: 'ctaLabel' }]); // the button's text
  expect(
    page
      .frames()
      .find((f) => f.url().startsWith(dev.url))
      ?.url(),
  ).toBe(`${dev.url}/en`);
  await expect(heading).toHaveText(/^Typed in the form/);
});

test('built with baking off, the site reads Folio live', async ({ page }) => {
  await site?.stop();
  site = undefined;
  await cms.setBakeEnabled(false);
  const output = await buildSite(folio, project);
  expect(output).toContain('Baking is off for this project (bakeEnabled is false)');
  expect(existsSync(join(siteDir, '.folio/snapshot.json'))).toBe(false);

  const built = await serveWith(() => startBuilt(folio, project));
  // The prerendered HTML has no content: it comes from Folio, in the browser.
  expect(await (await fetch(`${built.url}/en`)).text()).not.toContain('Fresh bread daily');
  await page.goto(`${built.url}/en`);
  await expect(hero(page)).toHaveText('Fresh bread daily');
  await expect(page.getByText('Read live from Folio')).toBeVisible();
  await expect(products(page).getByRole('article')).toHaveCount(2);

  await cms.save('features', { heading: 'Why our bakery' }, 'published');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Why our bakery' })).toBeVisible();
});

test('built with a baked snapshot, the page shows the content with Folio stopped', async ({ page }) => {
  await site?.stop();
  site = undefined;
  await cms.setBakeEnabled(true);
  const output = await buildSite(folio, project);
  expect(output).toMatch(/Baked 2 pages \(4 entries\) and 2 objects into .*\.folio\/snapshot\.json/);
  const version = /^(sha256:[0-9a-f]{64})$/m.exec(output)?.[1];
  expect(version).toBeTruthy();

  const built = await serveWith(() => startBuilt(folio, project));
  await folio.stop();

  const html = await (await fetch(`${built.url}/en`)).text();
  expect(html).toContain('Fresh bread daily');
  const toFolio: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(folio.url)) toFolio.push(request.url());
  });
  await page.goto(`${built.url}/en`);
  await expect(hero(page)).toHaveText('Fresh bread daily');
  await expect(page.getByRole('heading', { name: 'Why our bakery' })).toBeVisible();
  await expect(products(page).getByRole('article', { name: 'Baguette' })).toContainText('€2.20');
  await expect(page.getByText('Rendered from the snapshot baked into this build')).toBeVisible();
  await expect(page.locator(`[data-folio-version="${version}"]`)).toHaveCount(1);
  // Hydrated, and still nothing asked of Folio: the drafts (the hero's "Warm rye") stay unseen too.
  await page.waitForLoadState('networkidle');
  await expect(hero(page)).toHaveText('Fresh bread daily');
  expect(toFolio).toEqual([]);
});
