import { expect, HANDS, press, signIn, test } from './support/fixtures';
import { api, entryOf, folioForThisFile, newSite, syncPage } from './support/folio';

/**
 * A field inside a list item hands what is typed to the entry's form a moment after the last key
 * (src/features/editor/components/structured/lift.ts): nothing typed is ever lost on the way, whether
 * Save is pressed at once, or the page is reloaded at once (the browser asks first: typing not yet
 * handed over counts as unsaved).
 */
const folio = folioForThisFile();

const COMPONENTS = [
  {
    componentId: 'Features',
    instanceKey: 'features',
    fields: [{ key: 'items', type: 'list', fields: [{ key: 'title', type: 'text' }] }],
  },
];

for (const hand of HANDS) {
  test(`by ${hand}: typing in a list item is kept when Save is pressed at once, and over a reload at once`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', COMPONENTS);
    const entry = await entryOf(folio(), site, '/', 'features');
    await api(folio(), 'PATCH', `/v1/content/${entry.id}`, {
      token: site.admin.token,
      key: site.apiKey,
      body: {
        fields: {
          items: [
            { _key: 'one', title: 'First' },
            { _key: 'two', title: 'Second' },
          ],
        },
      },
    });
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);
    const form = page.getByRole('region', { name: 'features' });
    const second = form.getByRole('group', { name: /^Item 2/ }).getByRole('textbox', { name: 'title' });

    // Typed, then Save at once: the field hands its value over as it loses focus, before the click.
    await second.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and more');
    await press(page, form.getByRole('button', { name: 'Save draft' }), hand);
    await expect(page.getByText('features: draft saved')).toBeVisible();
    const saved = await entryOf(folio(), site, '/', 'features');
    expect(saved.fields.items).toEqual([
      { _key: 'one', title: 'First' },
      { _key: 'two', title: 'Second and more' },
    ]);

    // Typed, then a reload at once: the browser asks first, and the text comes back as a draft.
    const first = form.getByRole('group', { name: /^Item 1/ }).getByRole('textbox', { name: 'title' });
    await first.click();
    await page.keyboard.press('End');
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.type();
      void dialog.accept();
    });
    await page.keyboard.type('!');
    await page.reload();
    expect(asked).toBe('beforeunload');
    await expect(page.getByText('Unsaved changes from before were restored.')).toBeVisible();
    await expect(
      form.getByRole('group', { name: /^Item 1/ }).getByRole('textbox', { name: 'title' }),
    ).toHaveValue('First!');
  });
}
