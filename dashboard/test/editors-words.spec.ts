import {
  expect,
  expectAccessible,
  HANDS,
  type Hand,
  press,
  screenshot,
  signIn,
  tabTo,
  test,
} from './support/fixtures';
import {
  api,
  type EntryData,
  entryOf,
  folioForThisFile,
  newSite,
  patchEntry,
  type Site,
  syncPage,
} from './support/folio';
import { TESTIMONIAL } from './support/marketing-page';

/**
 * Issue 44 item 12, editors' words: alerts name fields by their labels, never their keys; a refused
 * publish is titled by what stopped (the saved draft is as it was), not "Not saved"; an alert clears
 * when the next action succeeds; History shows values as an editor reads them (list items by their
 * fields, blocks by their label, references by their entry's title, links by their page; no `_key`,
 * `_type`, ids or JSON); a French version is compared with the French working copy, not its fallback.
 */
const folio = folioForThisFile();

const INFO = {
  componentId: 'Info',
  instanceKey: 'info',
  fields: [
    { key: 'headline', type: 'text', label: 'Headline', required: true },
    { key: 'more', type: 'json', label: 'More info' },
    { key: 'extra', type: 'url', label: 'Extra link' },
  ],
};

const editorOf = (site: Site, pageId: string) =>
  `${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(pageId)}`;

async function typeInto(
  page: import('@playwright/test').Page,
  field: import('@playwright/test').Locator,
  text: string,
  hand: Hand,
) {
  if (hand === 'mouse') await field.click();
  else await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

for (const hand of HANDS) {
  test(`by ${hand}: alerts name labels, a refused publish is no "Not saved", and an alert clears on the next success`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', [INFO]);
    await page.goto(editorOf(site, '/'));
    await signIn(page, site.admin.email);
    const info = page.getByRole('region', { name: 'info' });

    await typeInto(page, info.getByLabel('More info'), '{ "broken": ', hand);
    await typeInto(page, info.getByLabel('Extra link'), 'javascript:alert(1)', hand);
    await press(page, info.getByRole('button', { name: 'Save draft' }), hand);
    const alert = info.getByRole('alert');
    await expect(alert).toContainText('Not saved');
    await expect(alert).toContainText('Fix More info, Extra link first.');
    await expect(alert).not.toContainText('more, extra');

    await typeInto(page, info.getByLabel('More info'), '{ "hours": [7, 19] }', hand);
    await typeInto(page, info.getByLabel('Extra link'), '/visit', hand);
    await press(page, info.getByRole('button', { name: 'Save draft' }), hand);
    await expect(info.getByText('unsaved changes')).toHaveCount(0);
    await expect(alert).toHaveCount(0);

    // Publish without the required headline: refused, nothing written; the saved draft stays saved.
    await press(page, info.getByRole('button', { name: 'Publish', exact: true }), hand);
    await expect(alert).toContainText('Publishing stopped');
    await expect(alert).toContainText('Not published: 1 problem to fix');
    await expect(alert).toContainText('The saved draft is as it was.');
    await expect(alert).not.toContainText('Not saved');
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'words-publish-refused');
    const stored = await entryOf(folio(), site, '/', 'info');
    expect(stored.fields).toEqual({ more: { hours: [7, 19] }, extra: '/visit' });
    expect(stored.status).toBe('draft');

    // With unsaved changes the refusal says Save draft keeps them; the next success clears it.
    await typeInto(page, info.getByLabel('Extra link'), '/hours', hand);
    await press(page, info.getByRole('button', { name: 'Publish', exact: true }), hand);
    await expect(alert).toContainText('Your changes are not saved yet: Save draft keeps them meanwhile.');
    await typeInto(page, info.getByLabel('Headline'), 'Open daily', hand);
    await press(page, info.getByRole('button', { name: 'Publish', exact: true }), hand);
    await expect(info.getByText('unsaved changes')).toHaveCount(0);
    await expect(alert).toHaveCount(0);
    expect((await entryOf(folio(), site, '/', 'info')).status).toBe('published');
  });
}

const CARD = {
  componentId: 'Card',
  instanceKey: 'card',
  fields: [
    { key: 'title', type: 'text', label: 'Title' },
    {
      key: 'features',
      type: 'list',
      label: 'Features',
      fields: [{ key: 'name', type: 'text', label: 'Name' }],
    },
    {
      key: 'sections',
      type: 'blocks',
      label: 'Sections',
      blocks: [
        {
          componentId: 'Quote',
          label: 'Quote block',
          fields: [{ key: 'text', type: 'text', label: 'Quote text' }],
        },
      ],
    },
    { key: 'quote', type: 'reference', label: 'Testimonial', componentIds: ['Testimonial'] },
    { key: 'cta', type: 'link', label: 'Call to action' },
    { key: 'theme', type: 'select', label: 'Theme', options: [{ value: 'sea', label: 'Sea blue' }] },
    { key: 'shown', type: 'boolean', label: 'Shown' },
  ],
};

for (const hand of HANDS) {
  test(`by ${hand}: History shows values as an editor reads them, by label, without keys, types or ids`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '@site', [TESTIMONIAL]);
    await syncPage(folio(), site, '/pricing', [{ componentId: 'Text', instanceKey: 'text', fields: [] }]);
    await syncPage(folio(), site, '/', [CARD]);
    const ada = await entryOf(folio(), site, '@site', 'ada');
    await patchEntry(folio(), site, site.admin.token, ada.id, {
      fields: { said: 'Worth it' },
      status: 'published',
    });
    const card = await entryOf(folio(), site, '/', 'card');
    await patchEntry(folio(), site, site.admin.token, card.id, {
      fields: {
        title: 'Bakery',
        features: [{ name: 'Fast' }, { name: 'Kind' }],
        sections: [{ _type: 'Quote', text: 'Warm and crusty' }],
        quote: ada.id,
        cta: { pageId: '/pricing' },
        theme: 'sea',
        shown: true,
      },
      status: 'published',
    });
    await patchEntry(folio(), site, site.admin.token, card.id, { fields: { title: 'Bakery, today' } });

    await page.goto(editorOf(site, '/'));
    await signIn(page, site.admin.email);
    await press(
      page,
      page.getByRole('region', { name: 'card' }).getByRole('link', { name: 'History' }),
      hand,
    );
    const version = page.getByRole('region', { name: /^Version of/ }).first();
    await expect(version.getByRole('row', { name: /^Title/ })).toContainText('changed');
    const features = version.getByRole('row', { name: /^Features/ });
    await expect(features).toContainText('Name: Fast');
    await expect(features).toContainText('Name: Kind');
    await expect(features).toContainText('same');
    const sections = version.getByRole('row', { name: /^Sections/ });
    await expect(sections).toContainText('Quote block');
    await expect(sections).toContainText('Quote text: Warm and crusty');
    await expect(version.getByRole('row', { name: /^Testimonial/ })).toContainText(
      'Worth it (Testimonial on @site)',
    );
    await expect(version.getByRole('row', { name: /^Call to action/ })).toContainText('The page /pricing');
    await expect(version.getByRole('row', { name: /^Theme/ })).toContainText('Sea blue');
    await expect(version.getByRole('row', { name: /^Shown/ })).toContainText('Yes');
    for (const raw of ['_key', '_type', 'ent_', '{"pageId"', '"pageId"', '[{'])
      await expect(version).not.toContainText(raw);
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'words-history-readable');
  });
}

test('a French version is compared with the French working copy, not the English it falls back on', async ({
  page,
}) => {
  const site = await newSite(folio());
  await api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
    token: site.admin.token,
    headers: { 'x-cms-project-id': site.projectId },
    body: { locales: { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] } },
  });
  await syncPage(folio(), site, '/', [
    {
      componentId: 'Hero',
      instanceKey: 'hero',
      fields: [
        { key: 'title', type: 'text', label: 'Title', localized: true },
        { key: 'cta', type: 'url', label: 'Button link' },
      ],
    },
  ]);
  const hero = await entryOf(folio(), site, '/', 'hero');
  const write = (locale: string, body: unknown) =>
    api<EntryData>(folio(), 'PATCH', `/v1/content/${hero.id}?locale=${locale}`, {
      token: site.admin.token,
      key: site.apiKey,
      body,
    });
  await write('en', { fields: { title: 'Hello', cta: '/shop' }, status: 'published' });
  // French publishes with no title of its own: its version holds the shared link only.
  await write('fr', { status: 'published' });

  await page.goto(`${editorOf(site, '/')}/entries/${encodeURIComponent(hero.id)}/history`);
  await signIn(page, site.admin.email);
  const french = page
    .getByRole('region', { name: /^Version of/ })
    .filter({ has: page.getByLabel('Language fr') });
  await expect(french).toHaveCount(1);
  const title = french.getByRole('row', { name: /^Title/ });
  await expect(title).toContainText('same');
  await expect(title).toContainText('Not translated into fr: it shows the en value.');
  await expect(title).not.toContainText('Hello');
  await expect(french.getByRole('row', { name: /^Button link/ })).toContainText('same');
  await expectAccessible(page);
  await screenshot(page, 'words-history-french');
});

const TRANSLATED = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    { key: 'title', type: 'text', label: 'Title', localized: true },
    {
      key: 'features',
      type: 'list',
      label: 'Features',
      localized: true,
      fields: [{ key: 'name', type: 'text', label: 'Name' }],
    },
    { key: 'cta', type: 'link', label: 'Call to action', localized: true },
    { key: 'note', type: 'text', label: 'Opening hours' },
  ],
};

for (const hand of HANDS) {
  test(`by ${hand}: side by side reads structured values as an editor does; a shared field edited in French says it changes every language`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
      token: site.admin.token,
      headers: { 'x-cms-project-id': site.projectId },
      body: { locales: { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] } },
    });
    await syncPage(folio(), site, '/pricing', [{ componentId: 'Text', instanceKey: 'text', fields: [] }]);
    await syncPage(folio(), site, '/', [TRANSLATED]);
    const hero = await entryOf(folio(), site, '/', 'hero');
    await api(folio(), 'PATCH', `/v1/content/${hero.id}?locale=en`, {
      token: site.admin.token,
      key: site.apiKey,
      body: {
        fields: { title: 'Hello', features: [{ name: 'Fast' }], cta: { pageId: '/pricing' }, note: '7-19' },
      },
    });

    await page.goto(editorOf(site, '/'));
    await signIn(page, site.admin.email);
    const form = page.getByRole('region', { name: 'hero' });
    const language = page.getByLabel('Language', { exact: true });
    if (hand === 'mouse') await language.selectOption('fr');
    else {
      await tabTo(page, language);
      await page.keyboard.press('ArrowDown');
    }
    await expect(language).toHaveValue('fr');
    await press(page, page.getByRole('button', { name: 'Side by side' }), hand);
    await expect(form.getByLabel('Features (en)')).toHaveValue('1. Name: Fast');
    await expect(form.getByLabel('Call to action (en)')).toHaveValue('The page /pricing');
    for (const raw of ['_key', 'pageId']) {
      await expect(form.getByLabel('Features (en)')).not.toHaveValue(new RegExp(raw));
      await expect(form.getByLabel('Call to action (en)')).not.toHaveValue(new RegExp(raw));
    }

    // The shared field: a quiet note until edited in French, then it says every language changes.
    await expect(form.getByText('Shared: the same in every language.')).toBeVisible();
    await typeInto(page, form.getByLabel('Opening hours', { exact: true }), '8-18', hand);
    await expect(
      form.getByText('Shared: saving this changes it in every language, not only fr.'),
    ).toBeVisible();
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'words-side-by-side');
    await press(page, form.getByRole('button', { name: 'Save draft' }), hand);
    await expect(form.getByText('unsaved changes')).toHaveCount(0);
    const en = await api<EntryData[]>(folio(), 'GET', `/v1/content/${encodeURIComponent('/')}?locale=en`, {
      key: site.apiKey,
      token: site.admin.token,
    });
    expect(en[0]!.fields.note).toBe('8-18');
  });
}

test('a shared page entry nothing refers to says the site reads it itself, not "Used on no page"', async ({
  page,
}) => {
  const site = await newSite(folio());
  await syncPage(folio(), site, '@site', [TESTIMONIAL]);
  await syncPage(folio(), site, '/', [{ componentId: 'Text', instanceKey: 'text', fields: [] }]);
  await page.goto(editorOf(site, '@site'));
  await signIn(page, site.admin.email);
  const ada = page.getByRole('region', { name: 'ada' });
  await expect(
    ada.getByText(/Shared: no page refers to it, so it shows wherever the site reads @site itself/),
  ).toBeVisible();
  await expect(ada.getByText('Used on no page')).toHaveCount(0);
  // A route page's entry keeps the plain words.
  await page.goto(editorOf(site, '/'));
  await expect(page.getByRole('region', { name: 'text' }).getByText('Used on no page')).toBeVisible();
});
