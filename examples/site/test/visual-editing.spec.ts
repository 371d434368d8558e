import { expect, type Page, test } from '@playwright/test';
import { seedSite } from '../scripts/seed';
import { editor, type Folio, newProject, PASSWORD, type Project, startFolio } from './support/folio';
import type { Running } from './support/processes';
import { screenshot } from './support/screenshots';
import { startDev } from './support/site';

/**
 * Visual editing end to end (issue 16): Folio serves the dashboard at /admin on one origin, the example
 * site runs on another (`next dev`), and the page screen's preview pane frames the site. Open the page
 * in the dashboard → the pane shows the site → click the Hero → its form is selected → typing changes
 * the text in the frame before any save (the delay from keypress to the frame's text is measured and
 * printed) → Publish → a visitor, with no preview, sees the new text. Then the same in French: the
 * project gets its languages (as `npm run seed` sets them), the preview URL names the French pages, the
 * editor chooses French in the page editor, and what they type and publish is the French page's.
 */
test.describe.configure({ mode: 'serial' });

let folio: Folio;
let project: Project;
let site: Running | undefined;
let cms: ReturnType<typeof editor>;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  folio = await startFolio();
  project = await newProject(folio);
  cms = editor(folio, project);
  site = await startDev(folio, project);
});

test.afterAll(async () => {
  await site?.stop();
  await folio?.close();
});

/** Stega marks (invisible characters the SDK appends to text values in preview) are not part of the text. */
const MARKS = '[\\u2063\\u200b-\\u200d\\u2060]*';
const shows = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${MARKS}$`);

const KEYS = ' fresh';

test('click the Hero in the pane, type, see it in the page at once, publish, a visitor sees it', async ({
  page,
  browser,
}) => {
  // The site registers its components on mount (development); the editor publishes a first Hero.
  const visitor = await browser.newPage();
  await visitor.goto(site!.url);
  await expect
    .poll(async () => (await cms.entries()).map((e) => e.instanceKey), { timeout: 30_000 })
    .toContain('hero');
  await cms.save('hero', { title: 'Fresh bread daily', subtitle: 'Baked at dawn' }, 'published');
  await cms.setPreviewUrl(`${site!.url}{pageId}`);

  await page.goto(`${folio.url}/admin/p/${project.id}/pages/${encodeURIComponent('/')}`);
  await page.getByLabel('Email').fill(project.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // The pane shows the site, which connects (hello → token → init → ready).
  const pane = page.getByRole('complementary', { name: 'Preview' });
  await expect(page.getByRole('button', { name: 'Preview' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTitle('Preview of /')).toHaveAttribute('src', `${site!.url}/`);
  await expect(pane.getByRole('status')).toContainText('Connected', { timeout: 60_000 });
  const frame = page.frameLocator('iframe[title="Preview of /"]');
  const heading = frame.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(shows('Fresh bread daily'));

  // Click the Hero: its form is selected, the cursor in its first field.
  await heading.click();
  const heroForm = page.getByRole('region', { name: 'hero' });
  await expect(heroForm).toHaveAttribute('aria-current', 'true');
  const title = heroForm.getByRole('textbox', { name: 'Title', exact: true });
  await expect(title).toBeFocused();
  await screenshot(page, 'visual-editing');

  // Typing changes the frame's text before saving; each keystroke's delay is measured in the browser.
  await title.press('End');
  const delays = await typeAndMeasure(page, KEYS);
  console.log(
    `visual editing: keypress → text in the frame: ${delays.map((d) => d.toFixed(1)).join(', ')} ms`,
  );
  test.info().annotations.push({ type: 'keypress to frame (ms)', description: delays.join(', ') });
  // The "within 100 ms", on the median keystroke: over four runs 13–78 ms per key (median at
  // most 36 ms) with the machine's load average at 25 on 2 cores, so the bound holds with a wide margin,
  // while one keystroke caught by a garbage collection or a busy CI neighbour does not fail the run.
  const median = [...delays].sort((a, b) => a - b)[Math.floor(delays.length / 2)]!;
  expect(median).toBeLessThan(100);
  await expect(heading).toHaveText(shows(`Fresh bread daily${KEYS}`));
  expect((await cms.entries()).find((e) => e.instanceKey === 'hero')?.fields.title).toBe('Fresh bread daily');
  await screenshot(page, 'visual-editing-typed');

  // Publish as everywhere; a visitor's page (no frame, no preview) shows the new text.
  await heroForm.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText('hero: published')).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`Fresh bread daily${KEYS}`);
  await expect(heading).toHaveText(shows(`Fresh bread daily${KEYS}`));
  await visitor.close();
});

test('visual editing in French: the pane shows /fr, typing in the French form changes it, Publish fr', async ({
  page,
  browser,
}) => {
  await seedSite({ url: folio.url, projectId: project.id, key: project.key, token: project.token });
  // `{locale}`: the pane shows the language the editor switches to (the dashboard fills it in).
  await cms.setPreviewUrl(`${site!.url}/{locale}{pageId}`);
  const visitor = await browser.newPage();

  await page.goto(`${folio.url}/admin/p/${project.id}/pages/${encodeURIComponent('/')}`);
  await page.getByLabel('Email').fill(project.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Language', { exact: true }).selectOption('fr');
  const heroForm = page.getByRole('region', { name: 'hero' });
  const title = heroForm.getByRole('textbox', { name: 'Title', exact: true });
  await expect(title).toHaveValue('Du pain frais chaque jour');

  const pane = page.getByRole('complementary', { name: 'Preview' });
  await expect(page.getByTitle('Preview of /')).toHaveAttribute('src', `${site!.url}/fr/`);
  await expect(pane.getByRole('status')).toContainText('Connected', { timeout: 60_000 });
  const frame = page.frameLocator('iframe[title="Preview of /"]');
  const heading = frame.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(shows('Du pain frais chaque jour'));
  await expect(frame.locator('html')).toHaveAttribute('lang', 'fr');

  await heading.click();
  await expect(heroForm).toHaveAttribute('aria-current', 'true');
  await expect(title).toBeFocused();
  await title.press('End');
  const delays = await typeAndMeasure(page, ' chaud');
  console.log(
    `visual editing in French: keypress → text in the frame: ${delays.map((d) => d.toFixed(1)).join(', ')} ms`,
  );
  await expect(heading).toHaveText(shows('Du pain frais chaque jour chaud'));
  await screenshot(page, 'visual-editing-fr');

  await heroForm.getByRole('button', { name: 'Publish fr', exact: true }).click();
  await expect(heroForm.getByRole('listitem', { name: 'fr: published (editing)' })).toBeVisible();
  await visitor.goto(`${site!.url}/fr`);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('Du pain frais chaque jour chaud');
  // Publishing is per language: English visitors still read the English title.
  await visitor.goto(`${site!.url}/en`);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('Fresh bread daily');
  await visitor.close();
});

/**
 * Types `keys` one at a time into the focused field; for each, the time from the dashboard's keydown to
 * the frame's heading showing the text with that key (both clocks as timeOrigin + now, comparable
 * across the two documents). Each key waits for its own change before the next is pressed.
 */
async function typeAndMeasure(page: Page, keys: string): Promise<number[]> {
  const frame = page.frames().find((f) => f !== page.mainFrame());
  if (!frame) throw new Error('no preview frame');
  await frame.evaluate(() => {
    const w = window as unknown as { changes: { at: number; text: string }[] };
    w.changes = [];
    const read = () =>
      (document.querySelector('h1')?.textContent ?? '').replace(/\u2063[\u200b-\u200d\u2060]*/g, '');
    new MutationObserver(() =>
      w.changes.push({ at: performance.timeOrigin + performance.now(), text: read() }),
    ).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.evaluate(() => {
    const w = window as unknown as { keydowns: number[] };
    w.keydowns = [];
    document.addEventListener(
      'keydown',
      () => w.keydowns.push(performance.timeOrigin + performance.now()),
      true,
    );
  });
  const delays: number[] = [];
  let expected = await frame.evaluate(() =>
    (document.querySelector('h1')?.textContent ?? '').replace(/\u2063[\u200b-\u200d\u2060]*/g, ''),
  );
  for (const [i, key] of [...keys].entries()) {
    expected += key;
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    const text = expected;
    await expect
      .poll(() =>
        frame.evaluate(
          (t) => (window as unknown as { changes: { text: string }[] }).changes.some((c) => c.text === t),
          text,
        ),
      )
      .toBe(true);
    const changedAt = await frame.evaluate(
      (t) =>
        (window as unknown as { changes: { at: number; text: string }[] }).changes.find((c) => c.text === t)!
          .at,
      text,
    );
    const pressedAt = await page.evaluate(
      (n) => (window as unknown as { keydowns: number[] }).keydowns[n]!,
      i,
    );
    delays.push(changedAt - pressedAt);
  }
  return delays;
}
