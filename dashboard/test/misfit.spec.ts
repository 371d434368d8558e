import { expect, expectAccessible, HANDS, press, screenshot, signIn, tabTo, test } from './support/fixtures';
import {
  api,
  editorEntries,
  entryOf,
  type Folio,
  folioForThisFile,
  newSite,
  patchEntry,
  type Site,
  syncPage,
  visitorEntries,
} from './support/folio';

/**
 * Issue 42 item 8 (contract §23, "shapes are total"): a page whose `json` field holds objects is
 * re-synced by a member with that field a multiple `reference` (stored values are kept). The editor
 * screen used to go blank ("This screen could not be shown", React error #31: an object rendered as an
 * entry id). Now the screen renders, the field says what is wrong in plain words, and the editor
 * clears it (by mouse, by keyboard), picks a replacement, saves and publishes. The server refuses such
 * items on write (400 at their path), so only a changed declaration (or older data) can leave them.
 */
const folio = folioForThisFile();

const PERSON = { componentId: 'Person', instanceKey: 'ada', fields: [{ key: 'name', type: 'text' }] };
const shelf = (refs: object, ref: object) => ({
  componentId: 'Shelf',
  instanceKey: 'shelf',
  fields: [
    { key: 'title', type: 'text', label: 'Title' },
    { key: 'refs', label: 'Related people', ...refs },
    { key: 'rows', type: 'list', label: 'Rows', fields: [{ key: 'ref', label: 'Row person', ...ref }] },
  ],
});
const AS_JSON = shelf({ type: 'json' }, { type: 'json' });
const AS_REFERENCES = shelf(
  { type: 'reference', multiple: true, componentIds: ['Person'] },
  { type: 'reference', componentIds: ['Person'] },
);

/** An object dressed as a resolved reference, as a json field may hold one. */
const dressed = (id: string, name: string) => ({
  id,
  pageId: '@site',
  componentId: 'Person',
  fields: { name },
});

/** Ada on @site, and the shelf of `/` holding objects in its json fields, published, then re-synced. */
async function shelfWithObjects(f: Folio, site: Site) {
  await syncPage(f, site, '@site', [PERSON]);
  const ada = await entryOf(f, site, '@site', 'ada');
  await patchEntry(f, site, site.admin.token, ada.id, { fields: { name: 'Ada' }, status: 'published' });
  await syncPage(f, site, '/', [AS_JSON]);
  const entry = await entryOf(f, site, '/', 'shelf');
  await patchEntry(f, site, site.admin.token, entry.id, {
    fields: {
      title: 'Our people',
      refs: [dressed(ada.id, 'FAKE'), dressed(ada.id, 'Ada')],
      rows: [{ _key: 'row1', ref: dressed(ada.id, 'FAKE') }],
    },
    status: 'published',
  });
  // A member's sync changes the types (a publishable key could not); the stored objects stay.
  await api(f, 'POST', '/v1/definitions/sync', {
    token: site.admin.token,
    key: site.apiKey,
    body: { pageId: '/', components: [AS_REFERENCES] },
  });
  return { ada: ada.id, shelf: entry.id };
}

const REFS_MISFIT =
  'This value no longer fits the field (it holds an object; the field holds references). Replace or clear it.';
const ROW_MISFIT =
  'This value no longer fits the field (it is an object; the field holds a reference). Replace or clear it.';

for (const hand of HANDS) {
  test(`by ${hand}: objects kept in a field that became a multiple reference show as its problem; cleared, replaced, published`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    const ids = await shelfWithObjects(folio(), site);
    // Visitors never got the objects as resolved references (they are left out), before any edit.
    const [before] = await visitorEntries(folio(), site, '/');
    expect(before?.fields.refs).toEqual([]);
    expect(before?.fields.rows).toEqual([{ _key: 'row1', ref: null }]);

    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent('/')}`);
    await signIn(page, site.admin.email);
    const card = page.getByRole('region', { name: 'shelf' });
    await expect(card.getByLabel('Title')).toHaveValue('Our people');
    await expect(page.getByText('This screen could not be shown')).toHaveCount(0);

    // Each field says what is wrong, shows what is stored, and offers to clear it.
    const refs = card.getByRole('group', { name: 'Related people' });
    await expect(refs.getByText(REFS_MISFIT)).toBeVisible();
    await expect(refs.getByLabel('Related people: stored value')).toHaveValue(/"FAKE"/);
    const row = card.getByRole('group', { name: 'Row person' });
    await expect(row.getByText(ROW_MISFIT)).toBeVisible();
    await expect(card.getByText('3 problems stop publishing')).toBeVisible();
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'misfit-field');

    await press(page, refs.getByRole('button', { name: 'Clear Related people' }), hand);
    await press(page, row.getByRole('button', { name: 'Clear Row person' }), hand);
    // The fields' own controls are back, empty, to choose a replacement.
    await expect(card.getByText(REFS_MISFIT)).toHaveCount(0);
    await expect(card.getByText(ROW_MISFIT)).toHaveCount(0);
    const chooser = card.getByRole('group', { name: 'Related people' });
    await expect(chooser.getByText('Nothing chosen.')).toBeVisible();
    if (hand === 'mouse') {
      await chooser.getByRole('button', { name: 'Search entries' }).click();
      await chooser.getByRole('button', { name: 'Choose Ada (Person on @site)' }).click();
    } else {
      const typed = chooser.getByLabel('Related people: entry id');
      await tabTo(page, typed);
      await page.keyboard.type(ids.ada);
      await press(page, chooser.getByRole('button', { name: 'Use id' }), hand);
    }
    await expect(chooser.getByRole('link', { name: 'Ada' })).toBeVisible();
    if (hand === 'mouse') await screenshot(page, 'misfit-field-replaced');

    await press(page, card.getByRole('button', { name: 'Save draft' }), hand);
    await expect(card.getByText('unsaved changes')).toHaveCount(0);
    const [saved] = await editorEntries(folio(), site, '/');
    expect(saved?.fields.refs).toEqual([ids.ada]);
    expect(saved?.fields.rows).toEqual([{ _key: 'row1' }]);
    expect(saved?.problems).toEqual([]);

    await press(page, card.getByRole('button', { name: 'Publish', exact: true }), hand);
    await expect(page.getByText('shelf: published')).toBeVisible();
    const [live] = await visitorEntries(folio(), site, '/');
    expect(live?.fields.refs).toEqual([
      { id: ids.ada, pageId: '@site', instanceKey: 'ada', componentId: 'Person', fields: { name: 'Ada' } },
    ]);
    expect(JSON.stringify(live)).not.toContain('FAKE');
  });
}

test('the server refuses non-string items of a multiple reference or select: 400 at their path, nothing written', async () => {
  const site = await newSite(folio());
  const ids = await shelfWithObjects(folio(), site);
  await syncPage(folio(), site, '/tags', [
    {
      componentId: 'Tagged',
      instanceKey: 'tagged',
      fields: [{ key: 'tags', type: 'select', multiple: true, options: [{ value: 'new' }] }],
    },
  ]);
  const tagged = await entryOf(folio(), site, '/tags', 'tagged');
  const cases: [string, object, string[]][] = [
    [ids.shelf, { refs: [123, dressed(ids.ada, 'FAKE')] }, ['body.fields.refs[0]', 'body.fields.refs[1]']],
    [tagged.id, { tags: ['new', 7] }, ['body.fields.tags[1]']],
  ];
  for (const [id, fields, paths] of cases) {
    const res = await fetch(`${folio().url}/v1/content/${id}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${site.admin.token}`,
        'x-cms-key': site.apiKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ fields, status: 'published' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.map((d) => d.path)).toEqual(paths);
  }
  const [stillTagged] = await editorEntries(folio(), site, '/tags');
  expect(stillTagged?.fields).toEqual({});
});
