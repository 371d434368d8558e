import type { Frame, Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  HANDS,
  type Hand,
  press,
  screenshot,
  signIn,
  test,
} from './support/fixtures';
import { api, entryOf, folioForThisFile, newSite, type Site, syncPage } from './support/folio';
import { startPreviewSite } from './support/preview-site';

/**
 * Visual editing with nested content (issue 36, item 6): a click on a list item or a block in the site
 * opens that item's form (its list expanded, and the list around it, scrolled to, the cursor in the
 * field clicked), and typing in a nested field shows in the site before saving. The stand-in site
 * (test/support/preview-site.ts) sends `select` with the item's path by `_key`, as @folio/sdk does
 * (its own test: packages/sdk/test/bridge.test.ts). Both lists hold more than five items, so they open
 * collapsed.
 */
const folio = folioForThisFile();

const COMPONENTS = [
  {
    componentId: 'Features',
    instanceKey: 'features',
    fields: [
      {
        key: 'items',
        type: 'list',
        fields: [
          { key: 'title', type: 'text' },
          { key: 'body', type: 'text' },
        ],
      },
      {
        key: 'sections',
        type: 'blocks',
        blocks: [
          {
            componentId: 'Gallery',
            label: 'Gallery',
            fields: [
              { key: 'heading', type: 'text' },
              { key: 'slides', type: 'list', fields: [{ key: 'caption', type: 'text' }] },
            ],
          },
        ],
      },
    ],
  },
];

const ITEMS = Array.from({ length: 8 }, (_, i) => ({
  _key: `item${i}`,
  title: `Feature ${i}`,
  body: `What feature ${i} does`,
}));
const SECTIONS = Array.from({ length: 6 }, (_, i) => ({
  _key: `gal${i}`,
  _type: 'Gallery',
  heading: `Gallery ${i}`,
  slides: Array.from({ length: 6 }, (_, j) => ({ _key: `g${i}s${j}`, caption: `Slide ${i}.${j}` })),
}));

type Received = { type: string; [key: string]: unknown }[];
const paneFrame = (page: Page): Frame => {
  const frame = page.frames().find((f) => f !== page.mainFrame());
  if (!frame) throw new Error('no preview frame');
  return frame;
};
const receivedBy = (frame: Frame) =>
  frame.evaluate(() => (window as unknown as { received: Received }).received);

async function setUp(site: Site, origin: string) {
  await syncPage(folio(), site, '/', COMPONENTS);
  const entry = await entryOf(folio(), site, '/', 'features');
  await api(folio(), 'PATCH', `/v1/content/${entry.id}`, {
    token: site.admin.token,
    key: site.apiKey,
    body: { fields: { items: ITEMS, sections: SECTIONS } },
  });
  await api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
    token: site.admin.token,
    body: { previewUrl: `${origin}/site{pageId}` },
  });
  return entry.id;
}

/** A click in the site, or (keyboard) its button focused and Enter, which a browser turns into a click. */
async function choose(page: Page, name: string, hand: Hand) {
  const target = page.frameLocator('iframe[title="Preview of /"]').getByRole('button', { name, exact: true });
  if (hand === 'mouse') await target.click();
  else {
    await target.focus();
    await page.keyboard.press('Enter');
  }
}

for (const hand of HANDS) {
  test(`by ${hand}: a list item or a block chosen in the site opens its form, and typing in it shows there`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    const siteServer = await startPreviewSite(folio().url, site.apiKey);
    try {
      const entryId = await setUp(site, siteServer.origin);
      await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
      await signIn(page, site.admin.email);
      const pane = page.getByRole('complementary', { name: 'Preview' });
      await expect(pane.getByRole('status')).toContainText('Connected');
      const form = page.getByRole('region', { name: 'features' });
      const item = form.getByRole('group', { name: 'Item 8: Feature 7' });
      // More than five items: the list opened collapsed.
      await expect(item.getByRole('button', { name: 'Item 8: Feature 7', exact: true })).toHaveAttribute(
        'aria-expanded',
        'false',
      );

      // The last item, chosen in the site: expanded, in view, the cursor in the field that was chosen.
      await choose(page, 'Feature 7', hand);
      await expect(form).toHaveAttribute('aria-current', 'true');
      await expect(item.getByRole('button', { name: 'Item 8: Feature 7', exact: true })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      const title = item.getByRole('textbox', { name: 'title', exact: true });
      await expect(title).toBeFocused();
      await expect(title).toBeInViewport();
      // Its neighbours stay as they were.
      await expect(form.getByRole('button', { name: 'Item 7: Feature 6', exact: true })).toHaveAttribute(
        'aria-expanded',
        'false',
      );
      await expect
        .poll(() => paneFrame(page).evaluate(() => document.body.dataset.highlightPath))
        .toBe('items[_key=item7].title');

      // Typing there shows in the site at once, unsaved.
      await page.keyboard.press('End');
      await page.keyboard.type(' and more');
      const frame = page.frameLocator('iframe[title="Preview of /"]');
      await expect(frame.getByRole('button', { name: 'Feature 7 and more', exact: true })).toBeVisible();
      const draft = (await receivedBy(paneFrame(page))).filter((m) => m.type === 'draft').at(-1);
      const sent = draft?.fields as { items: { _key: string; title: string }[] } | undefined;
      expect(sent?.items[7]).toEqual({
        _key: 'item7',
        title: 'Feature 7 and more',
        body: 'What feature 7 does',
      });

      // A slide inside a block, both collapsed (two levels): both open, the caption focused.
      await choose(page, 'Slide 5.4', hand);
      const gallery = form.getByRole('group', { name: 'Gallery: Gallery 5' });
      const slide = gallery.getByRole('group', { name: 'Item 5: Slide 5.4' });
      await expect(gallery.getByRole('button', { name: 'Gallery: Gallery 5', exact: true })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      const caption = slide.getByRole('textbox', { name: 'caption', exact: true });
      await expect(caption).toBeFocused();
      await expect(caption).toBeInViewport();
      await expect
        .poll(() => paneFrame(page).evaluate(() => document.body.dataset.highlightPath))
        .toBe('sections[_key=gal5].slides[_key=g5s4].caption');
      await page.keyboard.press('End');
      await page.keyboard.type('!');
      await expect(frame.getByRole('button', { name: 'Slide 5.4!', exact: true })).toBeVisible();
      // The first edit is still there: nothing typed was lost on the way.
      await expect(frame.getByRole('button', { name: 'Feature 7 and more', exact: true })).toBeVisible();
      if (hand === 'mouse') await screenshot(page, 'preview-nested');
      await expectAccessible(page);

      // Saved as typed, by key.
      await press(page, form.getByRole('button', { name: 'Save draft' }), hand);
      await expect(page.getByText('features: draft saved')).toBeVisible();
      const saved = await entryOf(folio(), site, '/', 'features');
      const items = saved.fields.items as { _key: string; title: string }[];
      expect(items[7]).toMatchObject({ _key: 'item7', title: 'Feature 7 and more' });
      const sections = saved.fields.sections as { slides: { _key: string; caption: string }[] }[];
      expect(sections[5]?.slides[4]).toEqual({ _key: 'g5s4', caption: 'Slide 5.4!' });
      expect(entryId).toBe(saved.id);
    } finally {
      await siteServer.close();
    }
  });
}
