import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import {
  api,
  entryOf,
  folioForThisFile,
  newSite,
  patchEntry,
  syncPage,
  visitorEntries,
} from './support/folio';
import { FEATURES, HERO, MENU, SECTIONS, TESTIMONIAL } from './support/marketing-page';

/**
 * Issue 36: a control for every field type of contract §13, rules before publish, shared pages apart
 * and a searched, paged pages list. A marketing page (a hero, a feature list, sections as blocks, a
 * testimonial by reference) and a `@site` menu are synced through the API, filled by mouse and by
 * keyboard, checked (a rule problem shown, then fixed), published and read back through the API.
 */
const folio = folioForThisFile();
test.use({ timezoneId: 'Europe/Paris' });

test('a marketing page and a @site menu: every control by mouse and keyboard, a rule problem shown then fixed, published and read back', async ({
  page,
}) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '/', [HERO, FEATURES, SECTIONS, TESTIMONIAL]);
  await syncPage(folio(), site, '/pricing', [{ componentId: 'Note', instanceKey: 'note', fields: [] }]);
  await syncPage(folio(), site, '@site', [MENU]);
  const ada = await entryOf(folio(), site, '/', 'ada');
  await patchEntry(folio(), site, site.admin.token, ada.id, {
    fields: { said: 'Folio saved us a week' },
    status: 'published',
  });

  await page.goto(folio().admin);
  await signIn(page, site.admin.email);

  // Shared pages apart; the site's pages searched.
  const shared = page.getByRole('table', { name: 'Shared content' });
  const pages = page.getByRole('table', { name: 'Site pages' });
  await expect(shared.getByRole('link', { name: '@site' })).toBeVisible();
  await expect(pages.getByRole('link', { name: '@site' })).toHaveCount(0);
  await expect(pages.getByRole('link', { name: '/pricing' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'pages-shared-and-search');
  await page.getByLabel('Search pages').fill('PRIC');
  await expect(pages.getByRole('link', { name: '/', exact: true })).toHaveCount(0);
  await expect(pages.getByRole('link', { name: '/pricing' })).toBeVisible();
  await page.getByLabel('Search pages').fill('');
  await pages.getByRole('link', { name: '/', exact: true }).click();

  // The hero: choices, dates, colour, link, reference, object.
  const hero = page.getByRole('region', { name: 'hero' });
  await expect(hero.getByRole('radio', { name: 'Wide' })).toBeVisible(); // loaded on demand
  await hero.getByRole('radio', { name: 'Wide' }).click(); // mouse
  await hero.getByRole('radio', { name: 'Wide' }).press('ArrowRight'); // keyboard: the next option
  await expect(hero.getByRole('radio', { name: 'Narrow' })).toBeChecked();
  await hero.getByLabel('Theme').selectOption('night');
  await hero.getByRole('checkbox', { name: 'sale' }).click();
  await hero.getByRole('checkbox', { name: 'eco' }).focus();
  await page.keyboard.press('Space');
  await expect(hero.getByRole('checkbox', { name: 'eco' })).toBeChecked();
  await hero.getByLabel('Launch day').fill('2026-12-01');
  await expect(hero.getByText(/in Europe\/Paris \(UTC\+01:00\)/)).toBeVisible();
  await hero.getByLabel('Starts at').fill('2026-12-01T09:30');
  await hero.getByLabel('Accent: picker').fill('#ff0000');
  await expect(hero.getByLabel('Accent: hex value')).toHaveValue('#ff0000');
  await hero.getByLabel('Accent: hex value').fill('#1a2b');
  await expect(hero.getByText('Enter a colour such as #1a2b3c')).toBeVisible();
  await hero.getByLabel('Accent: hex value').pressSequentially('3c');
  await expect(hero.getByText('Enter a colour such as #1a2b3c')).toHaveCount(0);
  // Link: a page found by search (keyboard), then an address typed and back to the page.
  await hero.getByLabel('Call to action: page').fill('/pri');
  await page.getByRole('option', { name: '/pricing' }).click();
  await expect(hero.getByLabel('Call to action: page')).toHaveValue('/pricing');
  // Reference: searched and chosen; its title and status shown.
  await hero.getByRole('button', { name: 'Search entries' }).click();
  await hero.getByLabel('Component or text').fill('saved');
  await hero.getByRole('button', { name: /Choose Folio saved us a week/ }).click();
  await expect(hero.getByRole('link', { name: 'Folio saved us a week' })).toBeVisible();
  await expect(hero.getByText('published', { exact: true })).toBeVisible();
  await hero.getByLabel('SEO title').fill('Bread, daily');
  await hero.getByRole('switch', { name: 'Hide from search engines' }).press('Space');

  // Publish without the required headline: refused (422), the problem at the field, a count on Publish.
  await hero.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(hero.getByRole('alert')).toContainText('Not published: 1 problem');
  await expect(hero.getByText('is required')).toBeVisible();
  await expect(hero.getByText('1 problem stops publishing')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'hero-problem');
  await hero.getByLabel('Headline').fill('Bread every morning');
  await expect(hero.getByText('is required')).toHaveCount(0);
  await hero.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(hero.getByText('unsaved changes')).toHaveCount(0);

  // The feature list: add by mouse and keyboard, reorder by keyboard and by button, duplicate, remove.
  const features = page.getByRole('region', { name: 'features' });
  await features.getByRole('button', { name: 'Add to Features' }).click();
  await features.getByRole('group', { name: 'Item 1' }).getByRole('textbox', { name: 'Title' }).fill('Fast');
  await features.getByRole('button', { name: 'Add to Features' }).press('Enter');
  await features.getByRole('group', { name: 'Item 2' }).getByRole('textbox', { name: 'Title' }).fill('Kind');
  await features.getByRole('button', { name: 'Add to Features' }).click();
  await features.getByRole('group', { name: 'Item 3' }).getByLabel('Body').fill('no title yet');
  // Alt+↑ in "Kind" moves it first; the cursor stays in it.
  await features
    .getByRole('group', { name: 'Item 2: Kind' })
    .getByRole('textbox', { name: 'Title' })
    .press('Alt+ArrowUp');
  await expect(features.getByRole('group', { name: /^Item \d/ }).first()).toHaveAccessibleName(
    'Item 1: Kind',
  );
  await expect(
    features.getByRole('group', { name: 'Item 1: Kind' }).getByRole('textbox', { name: 'Title' }),
  ).toBeFocused();
  await features.getByRole('button', { name: 'Move Item 1: Kind down' }).click();
  await expect(features.getByRole('group', { name: /^Item \d/ }).first()).toHaveAccessibleName(
    'Item 1: Fast',
  );
  await features.getByRole('button', { name: 'Duplicate Item 1: Fast' }).click();
  await expect(features.getByRole('group', { name: /^Item \d/ })).toHaveCount(4);
  await features.getByRole('button', { name: 'Remove Item 2: Fast' }).click();
  await expect(features.getByRole('group', { name: /^Item \d/ })).toHaveCount(3);
  await features.getByRole('button', { name: 'Item 1: Fast', exact: true }).click(); // collapse
  await expect(
    features.getByRole('group', { name: 'Item 1: Fast' }).getByRole('textbox', { name: 'Title' }),
  ).toHaveCount(0);
  await features.getByRole('button', { name: 'Item 1: Fast', exact: true }).press('Enter'); // open again
  await features.getByRole('button', { name: 'Save draft' }).click();
  await expect(features.getByText('unsaved changes')).toHaveCount(0);
  // The third item has no title: the API's problem shows inside that item, and on Publish.
  await expect(features.getByRole('group', { name: 'Item 3' })).toContainText('1 problem');
  await expect(features.getByRole('group', { name: 'Item 3' }).getByText('is required')).toBeVisible();
  await expect(features.getByText('1 problem stops publishing')).toBeVisible();
  await features.getByRole('group', { name: 'Item 3' }).getByRole('textbox', { name: 'Title' }).fill('Local');
  await features.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(features.getByText('unsaved changes')).toHaveCount(0);

  // Sections: "Add section" menu by mouse and by keyboard; a gallery's nested list.
  const sections = page.getByRole('region', { name: 'sections' });
  await sections.getByRole('button', { name: 'Add section to Sections' }).click();
  await page.getByRole('menuitem', { name: 'Quote' }).click();
  await sections.getByLabel('Quote text').fill('Warm and crusty');
  await sections.getByRole('button', { name: 'Add section to Sections' }).focus();
  await page.keyboard.press('Enter');
  // Arrow keys to "Gallery" (whether the menu put the focus on its first item or not), then Enter.
  const galleryItem = page.getByRole('menuitem', { name: 'Gallery' });
  await expect(galleryItem).toBeVisible();
  await expect(async () => {
    if (!(await galleryItem.evaluate((el) => el === document.activeElement)))
      await page.keyboard.press('ArrowDown');
    await expect(galleryItem).toBeFocused({ timeout: 300 });
  }).toPass();
  await page.keyboard.press('Enter');
  const gallery = sections.getByRole('group', { name: /^Gallery/ });
  await gallery.getByLabel('Caption').fill('Our ovens');
  await gallery.getByRole('button', { name: 'Add to Slides' }).click();
  await gallery.getByLabel('Slide text').fill('Morning');
  await gallery.getByLabel('Tint: hex value').fill('#abc');
  await expectAccessible(page);
  await screenshot(page, 'blocks-nested');
  await sections.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(sections.getByText('unsaved changes')).toHaveCount(0);

  // The shared menu.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pages' }).click();
  await page.getByRole('table', { name: 'Shared content' }).getByRole('link', { name: '@site' }).click();
  const menu = page.getByRole('region', { name: 'menu' });
  await menu.getByRole('button', { name: 'Add to Links' }).click();
  await menu.getByLabel('Label').fill('Docs');
  await menu.getByRole('radio', { name: 'An address' }).click();
  await menu.getByLabel('Target: address').fill('https://example.com/docs');
  await menu.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(menu.getByText('unsaved changes')).toHaveCount(0);
  await screenshot(page, 'site-menu');

  // Read back as visitors see it.
  const home = Object.fromEntries(
    (await visitorEntries(folio(), site, '/')).map((e) => [e.instanceKey, e.fields]),
  );
  expect(home.hero).toEqual({
    headline: 'Bread every morning',
    variant: 'narrow',
    theme: 'night',
    tags: ['sale', 'eco'],
    launch: '2026-12-01',
    startsAt: '2026-12-01T08:30:00Z',
    accent: '#1a2b3c',
    cta: { pageId: '/pricing' },
    // Visitors read a reference resolved (contract §13): the testimonial as published, one level deep.
    quote: {
      id: ada.id,
      pageId: '/',
      instanceKey: 'ada',
      componentId: 'Testimonial',
      fields: { said: 'Folio saved us a week' },
    },
    seo: { title: 'Bread, daily', noindex: true },
  });
  const items = home.features!.items as { _key: string; title: string }[];
  expect(items.map((i) => i.title)).toEqual(['Fast', 'Kind', 'Local']);
  expect(new Set(items.map((i) => i._key)).size).toBe(3);
  expect(home.sections!.sections).toEqual([
    { _key: expect.any(String), _type: 'Quote', text: 'Warm and crusty' },
    {
      _key: expect.any(String),
      _type: 'Gallery',
      caption: 'Our ovens',
      slides: [{ _key: expect.any(String), alt: 'Morning', tint: '#abc' }],
    },
  ]);
  const [menuEntry] = await visitorEntries(folio(), site, '@site');
  expect(menuEntry!.fields.links).toEqual([
    { _key: expect.any(String), label: 'Docs', target: { href: 'https://example.com/docs' } },
  ]);
});

test('the pages list reads 50 pages at a time ("Load more") and searches by path; shared pages apart', async ({
  page,
}) => {
  const site = await newSite(folio());
  const note = [{ componentId: 'Note', instanceKey: 'note', fields: [{ key: 'text', type: 'text' }] }];
  // 105 pages: the publishable key syncs at most 120 times a minute.
  for (let i = 0; i < 105; i++) await syncPage(folio(), site, `/p-${String(i).padStart(3, '0')}`, note);
  await syncPage(folio(), site, '@footer', note);

  await page.goto(folio().admin);
  await signIn(page, site.admin.email);
  const pages = page.getByRole('table', { name: 'Site pages' });
  const rows = pages.locator('tbody').getByRole('row');
  await expect(rows).toHaveCount(50);
  await expect(page.getByText('50 pages shown, more remain')).toBeVisible();
  await page.getByRole('button', { name: 'Load more' }).click(); // mouse
  await expect(rows).toHaveCount(100);
  await page.getByRole('button', { name: 'Load more' }).press('Enter'); // keyboard
  await expect(rows).toHaveCount(105);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Shared content' }).getByRole('link')).toHaveText(['@footer']);
  await expect(pages.getByRole('link', { name: '@footer' })).toHaveCount(0);

  await page.getByLabel('Search pages').fill('p-09');
  await expect(rows).toHaveCount(10); // /p-090 … /p-099
  await page.getByLabel('Search pages').fill('nothing-like-it');
  await expect(page.getByText('No page’s path contains “nothing-like-it”.')).toBeVisible();
  await screenshot(page, 'pages-search-empty');
});

test('a page publish refused by a rule (422): nothing published, the problem shown at its field', async ({
  page,
}) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '/', [HERO]);

  await page.goto(folio().admin);
  await signIn(page, site.admin.email);
  await page.getByRole('table', { name: 'Site pages' }).getByRole('link', { name: '/', exact: true }).click();
  await page.getByRole('button', { name: 'Publish page' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing was published' })).toContainText(
    '1 problems to fix',
  );
  const hero = page.getByRole('region', { name: 'hero' });
  await expect(hero.getByText('is required')).toBeVisible();
  await expect(hero.getByText('1 problem stops publishing')).toBeVisible();
  expect(await visitorEntries(folio(), site, '/')).toEqual([]);
  // Drafts always save, problems or not.
  await hero.getByLabel('SEO title').fill('Draft only');
  await hero.getByRole('button', { name: 'Save draft' }).click();
  await expect(hero.getByText('unsaved changes')).toHaveCount(0);
  expect((await entryOf(folio(), site, '/', 'hero')).fields.seo).toEqual({ title: 'Draft only' });
  await expect(hero.getByText('1 problem stops publishing')).toBeVisible(); // the API's problems
});

test('a screen that fails to render shows what went wrong and a way back, not a blank page', async ({
  page,
}) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '/', [TESTIMONIAL]);
  // The one way to make a screen fail here: an answer of a shape the screen cannot read.
  await page.route('**/v1/definitions/**', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ data: { not: 'a list' }, error: null }),
    }),
  );
  await page.goto(folio().admin);
  await signIn(page, site.admin.email);
  await page.getByRole('table', { name: 'Site pages' }).getByRole('link', { name: '/', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'This screen could not be shown' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('find');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible(); // the shell stays
  await screenshot(page, 'route-error');
  await page.getByRole('link', { name: 'Back to the pages' }).click();
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
});

test('list items reorder by drag and by Alt+↓; fields nest five containers deep; _keys are kept', async ({
  page,
}) => {
  const site = await newSite(folio());
  const deep = {
    componentId: 'Deep',
    instanceKey: 'deep',
    fields: [
      FEATURES.fields[0],
      {
        key: 'l1',
        type: 'object',
        label: 'Level 1',
        fields: [
          {
            key: 'l2',
            type: 'list',
            label: 'Level 2',
            fields: [
              {
                key: 'l3',
                type: 'object',
                label: 'Level 3',
                fields: [
                  {
                    key: 'l4',
                    type: 'list',
                    label: 'Level 4',
                    fields: [
                      {
                        key: 'l5',
                        type: 'object',
                        label: 'Level 5',
                        fields: [{ key: 'leaf', type: 'text', label: 'Leaf' }],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  await syncPage(folio(), site, '/', [deep]);
  const entry = await entryOf(folio(), site, '/', 'deep');
  await patchEntry(folio(), site, site.admin.token, entry.id, {
    fields: { items: [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }] },
  });
  const keys = ((await entryOf(folio(), site, '/', 'deep')).fields.items as { _key: string }[]).map(
    (i) => i._key,
  );

  await page.goto(folio().admin);
  await signIn(page, site.admin.email);
  await page.getByRole('table', { name: 'Site pages' }).getByRole('link', { name: '/', exact: true }).click();
  const form = page.getByRole('region', { name: 'deep' });
  const items = form.getByRole('group', { name: /^Item \d/ });
  await expect(items).toHaveCount(3);
  // Mouse: drag "Three" onto the first item.
  await form
    .getByRole('img', { name: 'Drag Item 3: Three' })
    .dragTo(form.getByRole('group', { name: 'Item 1: One' }));
  await expect(items.first()).toHaveAccessibleName('Item 1: Three');
  // Keyboard: Alt+↓ in the (now) first item moves it down; the move is announced.
  await form
    .getByRole('group', { name: 'Item 1: Three' })
    .getByRole('textbox', { name: 'Title' })
    .press('Alt+ArrowDown');
  await expect(items.nth(1)).toHaveAccessibleName('Item 2: Three');
  await expect(form.getByRole('status').filter({ hasText: 'moved to position 2 of 3' })).toBeAttached();

  // Five containers deep.
  await form.getByRole('button', { name: 'Add to Level 2' }).click();
  await form.getByRole('button', { name: 'Add to Level 4' }).click();
  await form.getByLabel('Leaf').fill('deep down');
  await expectAccessible(page);
  await screenshot(page, 'nested-five-levels');
  await form.getByRole('button', { name: 'Save draft' }).click();
  await expect(form.getByText('unsaved changes')).toHaveCount(0);

  const saved = (await entryOf(folio(), site, '/', 'deep')).fields as {
    items: { _key: string; title: string }[];
    l1: { l2: { l3: { l4: { l5: { leaf: string } }[] } }[] };
  };
  expect(saved.items.map((i) => i.title)).toEqual(['One', 'Three', 'Two']);
  expect(saved.items.map((i) => i._key)).toEqual([keys[0], keys[2], keys[1]]);
  expect(saved.l1.l2[0]!.l3.l4[0]!.l5.leaf).toBe('deep down');
});

test('keyboard only: a select beyond five options, a multi-select, a link to a page, a reference, a date', async ({
  page,
}) => {
  const site = await newSite(folio());
  const many = ['sand', 'sea', 'forest', 'night', 'rose', 'slate'].map((value) => ({ value }));
  const card = {
    componentId: 'Card',
    instanceKey: 'card',
    fields: [
      { key: 'theme', type: 'select', label: 'Theme', options: many },
      { key: 'moods', type: 'select', label: 'Moods', multiple: true, options: many },
      { key: 'cta', type: 'link', label: 'Call to action' },
      { key: 'quote', type: 'reference', label: 'Testimonial', componentIds: ['Testimonial'] },
      { key: 'launch', type: 'date', label: 'Launch day' },
    ],
  };
  await syncPage(folio(), site, '/', [card, TESTIMONIAL]);
  await syncPage(folio(), site, '/pricing', [TESTIMONIAL]);
  const ada = await entryOf(folio(), site, '/pricing', 'ada');
  await patchEntry(folio(), site, site.admin.token, ada.id, { fields: { said: 'Worth it' } });

  await page.goto(folio().admin);
  await signIn(page, site.admin.email);
  await page.getByRole('table', { name: 'Site pages' }).getByRole('link', { name: '/', exact: true }).click();
  const form = page.getByRole('region', { name: 'card' });
  await form.getByRole('combobox', { name: 'Theme' }).focus(); // once its chunk has loaded
  await page.keyboard.type('se'); // the native select's type-ahead, without opening its list
  await expect(form.getByRole('combobox', { name: 'Theme' })).toHaveValue('sea');
  await form.getByRole('textbox', { name: 'Moods' }).focus();
  await page.keyboard.type('for');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await form.getByLabel('Call to action: page').focus();
  await page.keyboard.type('/pri');
  await expect(page.getByRole('option', { name: '/pricing' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(form.getByLabel('Call to action: page')).toHaveValue('/pricing');
  await form.getByRole('button', { name: 'Search entries' }).focus();
  await page.keyboard.press('Enter');
  await form.getByLabel('Page', { exact: true }).focus();
  await page.keyboard.type('/pricing');
  await form.getByRole('button', { name: /Choose Worth it/ }).focus();
  await page.keyboard.press('Enter');
  await expect(form.getByRole('link', { name: 'Worth it' })).toBeVisible();
  await expect(form.getByText('draft', { exact: true })).toBeVisible();
  await form.getByLabel('Launch day').focus();
  await page.keyboard.type('03152027'); // month, day, year in the en-US date input
  await form.getByRole('button', { name: 'Save draft' }).focus();
  await page.keyboard.press('Enter');
  await expect(form.getByText('unsaved changes')).toHaveCount(0);
  expect((await entryOf(folio(), site, '/', 'card')).fields).toEqual({
    theme: 'sea',
    moods: ['forest'],
    cta: { pageId: '/pricing' },
    quote: ada.id,
    launch: '2027-03-15',
  });
});

test('labels, help, required markers and declared defaults: a new list item starts from its defaults', async ({
  page,
}) => {
  const site = await newSite(folio());
  const faq = {
    componentId: 'Faq',
    instanceKey: 'faq',
    fields: [
      {
        key: 'questions',
        type: 'list',
        label: 'Questions',
        help: 'Asked most often first',
        fields: [
          { key: 'q', type: 'text', label: 'Question', required: true, default: 'Why Folio?' },
          {
            key: 'tone',
            type: 'select',
            label: 'Tone',
            options: [{ value: 'plain' }, { value: 'warm' }],
            default: 'warm',
          },
          { key: 'open', type: 'boolean', label: 'Open at first', default: true },
        ],
      },
    ],
  };
  // A member's session syncs defaults (a publishable key's would be left out in the additive mode).
  await api(folio(), 'POST', '/v1/definitions/sync', {
    token: site.admin.token,
    key: site.apiKey,
    body: { pageId: '/faq', components: [faq] },
  });

  await page.goto(folio().admin);
  await signIn(page, site.admin.email);
  await page.getByRole('table', { name: 'Site pages' }).getByRole('link', { name: '/faq' }).click();
  const form = page.getByRole('region', { name: 'faq' });
  await expect(form.getByText('Asked most often first')).toBeVisible();
  await form.getByRole('button', { name: 'Add to Questions' }).click();
  const item = form.getByRole('group', { name: 'Item 1: Why Folio?' });
  await expect(item.getByRole('textbox', { name: 'Question' })).toHaveValue('Why Folio?');
  await expect(item.getByText('*', { exact: true })).toBeVisible(); // the required marker
  await expect(item.getByRole('radio', { name: 'warm' })).toBeChecked();
  await expect(item.getByRole('switch', { name: 'Open at first' })).toBeChecked();
  await form.getByRole('button', { name: 'Save draft' }).click();
  await expect(form.getByText('unsaved changes')).toHaveCount(0);
  const saved = (await entryOf(folio(), site, '/faq', 'faq')).fields.questions as Record<string, unknown>[];
  expect(saved).toEqual([{ _key: expect.any(String), q: 'Why Folio?', tone: 'warm', open: true }]);
});
