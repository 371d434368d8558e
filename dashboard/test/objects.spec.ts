import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { api, asAdmin, folioForThisFile, newMember, newSite, type Site } from './support/folio';

/** Workflow 7: objects — types, the objects of a type, fields and collections draft beside published; delete. */
const folio = folioForThisFile();

async function saveObjects(site: Site, body: unknown) {
  return api(folio(), 'POST', '/v1/objects/save', { ...asAdmin(site), body });
}

async function catalogue(site: Site) {
  await saveObjects(site, {
    status: 'published',
    objects: [
      {
        type: 'product',
        id: 'sku-1042',
        fields: { title: 'Linen shirt', price: 49.5, inStock: true, seo: { title: 'Linen shirt | Shop' } },
        collections: {
          images: [
            { itemId: 'img-1', value: { url: 'https://cdn.example.com/1.jpg' } },
            { itemId: 'img-2', value: { url: 'https://cdn.example.com/2.jpg' } },
          ],
        },
      },
      { type: 'product', id: 'sku-2001', fields: { title: 'Wool scarf', price: 30 } },
      { type: 'author', id: 'ada', fields: { name: 'Ada' } },
    ],
  });
  // Later drafts: a changed price, a new image, a new field; and a product never published.
  await saveObjects(site, {
    objects: [
      {
        type: 'product',
        id: 'sku-1042',
        fields: { price: 45, badge: 'sale' },
        collections: {
          images: [
            { itemId: 'img-1', value: { url: 'https://cdn.example.com/1.jpg' } },
            { itemId: 'img-3', value: { url: 'https://cdn.example.com/3.jpg' } },
          ],
        },
      },
      { type: 'product', id: 'sku-3000', fields: { title: 'Draft hat' } },
    ],
  });
}

test('types, the objects of a type with their state, one object draft beside published, then delete', async ({
  page,
}) => {
  const site = await newSite(folio());
  await catalogue(site);
  await page.goto(`${folio().admin}/p/${site.projectId}/objects`);
  await signIn(page, site.admin.email);
  await expect(page.getByRole('heading', { name: 'Objects', level: 1 })).toBeVisible();
  const types = page.getByRole('navigation', { name: 'Object types' });
  await expect(types.getByRole('link')).toHaveText([/author\s*1 object/, /product\s*3 objects/]);

  await types.getByRole('link', { name: /product/ }).click();
  const table = page.getByRole('table', { name: 'Objects of type product' });
  await expect(table.getByRole('row', { name: /sku-1042/ })).toContainText('draft differs from published');
  await expect(table.getByRole('row', { name: /sku-2001/ })).toContainText('published');
  await expect(table.getByRole('row', { name: /sku-3000/ })).toContainText('never published');
  await expect(table.getByRole('row', { name: /sku-1042/ })).toContainText('images');
  await expectAccessible(page);

  await table.getByRole('link', { name: 'sku-1042' }).click();
  await expect(page).toHaveURL(/\/objects\/product\/sku-1042$/);
  const fields = page.getByRole('table', { name: 'Fields' });
  await expect(fields.getByRole('row', { name: /^price/ }).getByRole('cell')).toHaveText([
    /price\s*\(changed\)/,
    '45',
    '49.5',
  ]);
  await expect(fields.getByRole('row', { name: /^badge/ }).getByRole('cell')).toHaveText([
    /badge\s*\(changed\)/,
    'sale',
    '—',
  ]);
  await expect(fields.getByRole('row', { name: /^title/ }).getByRole('cell')).toHaveText([
    'title',
    'Linen shirt',
    'Linen shirt',
  ]);
  await expect(fields.getByRole('row', { name: /^seo\.title/ })).toContainText('Linen shirt | Shop');
  const images = page.getByRole('table', { name: 'Collection images' });
  await expect(images.getByRole('row', { name: /^img-2/ }).getByRole('cell')).toHaveText([
    'img-2',
    '—',
    /2\.jpg/,
  ]);
  await expect(images.getByRole('row', { name: /^img-3/ }).getByRole('cell')).toHaveText([
    'img-3',
    /3\.jpg/,
    '—',
  ]);
  await expect(page.getByText('2 in the draft, 2 published')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'objects');

  // Delete, asked first: gone from both views.
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete product/sku-1042?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/objects\/product$/);
  await expect(table.getByRole('row', { name: /sku-1042/ })).toHaveCount(0);
  await expect(types.getByRole('link', { name: /product/ })).toContainText('2 objects');
  const left = await api<{ id: string }[]>(
    folio(),
    'GET',
    '/v1/objects?draft=true&types=product',
    asAdmin(site),
  );
  expect(left.map((o) => o.id)).toEqual(['sku-2001', 'sku-3000']);
  const live = await api<{ id: string }[]>(folio(), 'GET', '/v1/objects?types=product', { key: site.apiKey });
  expect(live.map((o) => o.id)).toEqual(['sku-2001']);
});

test('an empty project says where objects come from; an editor may delete too', async ({ page }) => {
  const site = await newSite(folio());
  const editor = await newMember(folio(), site, 'editor');
  await page.goto(`${folio().admin}/p/${site.projectId}/objects`);
  await signIn(page, editor.email);
  await expect(page.getByText(/No objects yet/)).toBeVisible();
  await saveObjects(site, { objects: [{ type: 'author', id: 'grace', fields: { name: 'Grace' } }] });
  await page.goto(`${folio().admin}/p/${site.projectId}/objects/author/grace`);
  await expect(page.getByRole('heading', { name: 'author/grace' })).toBeVisible();
  await expect(page.getByText('never published', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/No objects yet/)).toBeVisible();
});
