import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { seedSite } from '../scripts/seed';
import { editor, type Folio, newProject, type Project, startFolio } from './support/folio';
import type { Running } from './support/processes';
import { screenshot } from './support/screenshots';
import { buildSite, buildStatic, serveFiles, siteDir, startBuilt, startDev } from './support/site';

/**
 * The site in three languages (issue 35): a project seeded as `npm run seed` seeds it (its languages
 * set through PATCH /v1/projects/:id, French and Canadian French written through PATCH
 * /v1/content/:id?locale=), then every language walked (`/en`, `/fr`, `/fr-CA`, fallbacks included),
 * the switcher by mouse and keyboard, a French publish that changes French and Canadian French and not
 * English, a French preview, visual editing in French, and the baked builds of every language (served
 * by `next start`, and exported as plain files) with Folio stopped.
 */
test.describe.configure({ mode: 'serial' });

let folio: Folio;
let project: Project;
let site: Running | undefined;
let cms: ReturnType<typeof editor>;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  folio = await startFolio();
  project = await newProject(folio);
  cms = editor(folio, project);
  await seedSite({ url: folio.url, projectId: project.id, key: project.key, token: project.token });
  site = await startDev(folio, project);
});

test.afterAll(async () => {
  await site?.stop();
  await folio?.close();
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const region = (page: Page, name: string | RegExp) => page.getByRole('region', { name });
const languages = (page: Page) => page.getByRole('navigation', { name: 'Language' });

/** What each language shows of the seeded site: its own texts, or its fallback's. */
const SEEN = {
  en: {
    title: 'Fresh bread daily',
    subtitle: 'Baked at dawn with local flour.',
    cta: 'Order',
    menu: ['Why us', 'Testimonials', 'Our loaves'],
    features: 'Why us',
    feature: 'Sourdough starter from 1987',
    testimonials: 'What our customers say',
    quotes: ['The best sourdough in town.', 'Their croissants make my mornings.'],
    role: 'A regular since 2019',
    footer: 'Folio Bakery, 12 Flour Street. Open every day from 7 am.',
    products: 'Our loaves',
    price: /^€6\.50$/,
  },
  fr: {
    title: 'Du pain frais chaque jour',
    subtitle: 'Cuit à l’aube avec de la farine locale.',
    cta: 'Commander',
    menu: ['Pourquoi nous', 'Témoignages', 'Nos pains'],
    features: 'Pourquoi nous',
    feature: 'Un levain de 1987',
    testimonials: 'Ce que disent nos clients',
    quotes: ['Le meilleur pain au levain de la ville.', 'Leurs croissants illuminent mes matins.'],
    role: 'Cliente depuis 2019',
    footer: 'Boulangerie Folio, 12 rue de la Farine. Ouvert tous les jours dès 7 h.',
    products: 'Nos pains',
    price: /^6,50\s€$/,
  },
  // Canadian French has its own title, button and one quote; everything else falls back to French.
  'fr-CA': {
    title: 'Du pain frais tous les matins',
    subtitle: 'Cuit à l’aube avec de la farine locale.',
    cta: 'Commander en ligne',
    menu: ['Pourquoi nous', 'Témoignages', 'Nos pains'],
    features: 'Pourquoi nous',
    feature: 'Un levain de 1987',
    testimonials: 'Ce que disent nos clients',
    quotes: ['Le meilleur pain au levain en ville, pour vrai.', 'Leurs croissants illuminent mes matins.'],
    role: 'Cliente depuis 2019',
    footer: 'Boulangerie Folio, 12 rue de la Farine. Ouvert tous les jours dès 7 h.',
    products: 'Nos pains',
    price: /^6,50\s€$/,
  },
} as const;
type Code = keyof typeof SEEN;
const CODES = Object.keys(SEEN) as Code[];

/** Every part of the page in `code`: the page's entries, @site's menu and footer, references, objects. */
async function expectLanguage(page: Page, code: Code) {
  const seen = SEEN[code];
  await expect(page.locator('html')).toHaveAttribute('lang', code);
  await expect(heading(page)).toHaveText(seen.title);
  await expect(region(page, seen.title)).toContainText(seen.subtitle);
  await expect(page.getByRole('link', { name: seen.cta, exact: true })).toHaveAttribute('href', '#products');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([...seen.menu]);
  await expect(region(page, seen.features)).toContainText(seen.feature);
  const testimonials = region(page, seen.testimonials);
  await expect(testimonials.locator('blockquote')).toHaveText([...seen.quotes]);
  await expect(testimonials.getByRole('figure').first()).toContainText(`Amélie Laurent, ${seen.role}`);
  await expect(page.getByRole('contentinfo')).toContainText(seen.footer);
  await expect(
    region(page, seen.products).getByRole('article', { name: 'Sourdough' }).locator('.price'),
  ).toHaveText(seen.price);
  await expect(
    languages(page).getByRole('link', { name: /./ }).and(page.locator('[aria-current="page"]')),
  ).toHaveAttribute('lang', code);
}

test('every language shows its own texts, and a missing translation reads from its fallback', async ({
  page,
}) => {
  const dev = site!;
  // The bare address opens the default language.
  await page.goto(dev.url);
  await expect(page).toHaveURL(`${dev.url}/en`);
  for (const code of CODES) {
    await page.goto(`${dev.url}/${code}`);
    await expectLanguage(page, code);
  }
  // A language the site does not have is not a page.
  const missing = await fetch(`${dev.url}/de`);
  expect(missing.status).toBe(404);
});

test('the language switcher opens the same page in another language, by mouse and by keyboard', async ({
  page,
}) => {
  const dev = site!;
  await page.goto(`${dev.url}/en`);
  const switcher = languages(page);
  await expect(switcher.getByRole('link')).toHaveText(['English', 'Français', 'Français (Canada)']);
  await expect(switcher.getByRole('link', { name: 'English' })).toHaveAttribute('aria-current', 'page');

  await switcher.getByRole('link', { name: 'Français', exact: true }).click();
  await expect(page).toHaveURL(`${dev.url}/fr`);
  await expectLanguage(page, 'fr');
  await screenshot(page, 'languages-fr');

  // Keyboard: Tab to the Canadian French link, Enter.
  const canadian = languages(page).getByRole('link', { name: 'Français (Canada)' });
  for (let i = 0; i < 30 && !(await canadian.evaluate((a) => a === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(canadian).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${dev.url}/fr-CA`);
  await expectLanguage(page, 'fr-CA');

  await languages(page).getByRole('link', { name: 'English' }).click();
  await expect(page).toHaveURL(`${dev.url}/en`);
  await expectLanguage(page, 'en');
});

test('a French translation published in French changes French and Canadian French, never English', async ({
  page,
}) => {
  const dev = site!;
  // Saved, not published: visitors see nothing of it.
  await cms.saveIn('fr', 'hero', { subtitle: 'Cuit au feu de bois.' }, 'draft');
  await page.goto(`${dev.url}/fr`);
  await expect(region(page, SEEN.fr.title)).toContainText(SEEN.fr.subtitle);

  await cms.saveIn('fr', 'hero', {}, 'published');
  await page.reload();
  await expect(region(page, SEEN.fr.title)).toContainText('Cuit au feu de bois.');
  await page.goto(`${dev.url}/fr-CA`);
  await expect(region(page, SEEN['fr-CA'].title)).toContainText('Cuit au feu de bois.'); // its fallback
  await page.goto(`${dev.url}/en`);
  await expectLanguage(page, 'en');
});

test('a preview in French follows a French draft live; English visitors see nothing of it', async ({
  page,
  browser,
}) => {
  const dev = site!;
  const token = await cms.previewToken();
  const stream = page.waitForResponse((r) => r.url().startsWith(`${folio.url}/v1/live`) && r.ok());
  await page.goto(`${dev.url}/fr?folio-preview=${token}`);
  await stream;
  await expect(page.getByText('Preview: drafts, updated as the editor saves')).toBeVisible();
  await expect(heading(page)).toHaveText(SEEN.fr.title);

  await cms.saveIn('fr', 'hero', { title: 'Pain de seigle, aujourd’hui seulement' }, 'draft');
  await expect(heading(page)).toHaveText('Pain de seigle, aujourd’hui seulement', { timeout: 2000 });
  // The switcher keeps the preview in the other language.
  await expect(languages(page).getByRole('link', { name: 'English' })).toHaveAttribute(
    'href',
    `/en?folio-preview=${token}`,
  );

  const visitor = await browser.newPage();
  await visitor.goto(`${dev.url}/fr`);
  await expect(heading(visitor)).toHaveText(SEEN.fr.title);
  await visitor.goto(`${dev.url}/en`);
  await expect(heading(visitor)).toHaveText(SEEN.en.title);
  await visitor.close();
});

test("visual editing in French: in the editor's pane the French page takes the editor's unsaved text", async ({
  page,
}) => {
  const dev = site!;
  // The dashboard's place, as in site.spec.ts: a document of Folio's origin framing the French page
  // (the project's preview URL would be `<site>/fr{pageId}`).
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
  }, `${dev.url}/fr`);
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
  const title = frame.getByRole('heading', { level: 1 });
  await expect(title).toHaveText(SEEN.fr.title);
  // The page, not @site, is what the frame offers to edit.
  await expect
    .poll(async () => (await received('hello'))[0])
    .toEqual({
      folio: 'bridge',
      v: 1,
      type: 'hello',
      pageId: '/',
    });

  await post({ type: 'init', previewToken: await cms.previewToken(), pageId: '/' });
  await expect.poll(async () => (await received('ready')).length).toBe(1);
  // Drafts in French: the French draft of the test above.
  await expect(title).toHaveText(/^Pain de seigle, aujourd’hui seulement/);
  const hero = (await cms.entries('/', 'fr')).find((e) => e.instanceKey === 'hero')!;
  await post({
    type: 'draft',
    entryId: hero.id,
    fields: { ...hero.fields, title: 'Tapé dans le formulaire' },
  });
  await expect(title).toHaveText(/^Tapé dans le formulaire/);
  // The rest of the French page stays French.
  // (Texts carry stega marks in the pane, list items' too: invisible characters after the text.)
  await expect(frame.getByRole('navigation', { name: 'Main' }).getByRole('link').first()).toHaveText(
    new RegExp(`^${SEEN.fr.menu[0]}[\\u2063\\u200b-\\u200d\\u2060]*$`),
  );

  // A click on the Hero's button selects the Hero, and the frame stays on the page.
  await frame.getByRole('link', { name: /^Commander/ }).click();
  await expect
    .poll(() => received('select'))
    .toEqual([{ folio: 'bridge', v: 1, type: 'select', entryId: hero.id, path: 'ctaLabel' }]); // the button's text
  await expect(title).toHaveText(/^Tapé dans le formulaire/);
  await screenshot(page, 'pane-fr');
});

test('the static builds render every language from the baked snapshot, with Folio stopped', async ({
  page,
}) => {
  test.setTimeout(480_000);
  await site?.stop();
  site = undefined;
  // The French draft of the tests above is not published: the builds show the published texts.
  await cms.saveIn('fr', 'hero', { title: SEEN.fr.title }, 'draft');
  // Both builds bake every language (GET /v1/snapshot?locale=*): plain files for any static host
  // (`npm run build:static`, into out/), and the build `next start` serves (`npm run build:site`).
  const exported = await buildStatic(folio, project);
  expect(exported).toMatch(/^sha256:[0-9a-f]{64}$/m);
  const output = await buildSite(folio, project);
  const version = /^(sha256:[0-9a-f]{64})$/m.exec(output)?.[1];
  expect(version).toBeTruthy();
  const files = await serveFiles(join(siteDir, 'out'));
  const built = await startBuilt(folio, project);
  site = built;
  await folio.stop();

  try {
    for (const origin of [built.url, files.url]) {
      for (const code of CODES) {
        const html = await (await fetch(`${origin}/${code}`)).text();
        expect(html).toContain(`<html lang="${code}"`);
        expect(html).toContain(SEEN[code].title);
        expect(html).toContain(SEEN[code].quotes[0]);
      }
      const toFolio: string[] = [];
      const record = (request: { url(): string }) => {
        if (request.url().startsWith(folio.url)) toFolio.push(request.url());
      };
      page.on('request', record);
      await page.goto(`${origin}/en`);
      await expect(page.getByText('Rendered from the snapshot baked into this build')).toBeVisible();
      await expect(page.locator(`[data-folio-version="${version}"]`)).toHaveCount(1);
      await expectLanguage(page, 'en');
      await languages(page).getByRole('link', { name: 'Français', exact: true }).click();
      await expect(page).toHaveURL(`${origin}/fr`);
      // The French subtitle published in French above; the rest as seeded.
      await expect(region(page, SEEN.fr.title)).toContainText('Cuit au feu de bois.');
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
        ...SEEN.fr.menu,
      ]);
      await languages(page).getByRole('link', { name: 'Français (Canada)' }).click();
      await expect(page).toHaveURL(`${origin}/fr-CA`);
      await expect(heading(page)).toHaveText(SEEN['fr-CA'].title);
      await expect(region(page, SEEN['fr-CA'].testimonials).locator('blockquote')).toHaveText([
        ...SEEN['fr-CA'].quotes,
      ]);
      await page.waitForLoadState('networkidle');
      page.off('request', record);
      expect(toFolio).toEqual([]);
    }
  } finally {
    await files.stop();
  }
});
