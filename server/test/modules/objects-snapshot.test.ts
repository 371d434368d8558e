import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';

type Site = Awaited<ReturnType<typeof newProject>>;

describeEachDb('objects in the snapshot', (ctx) => {
  let a: Site;
  let b: Site;
  const snapshot = (site: Site) =>
    call(ctx.app, { method: 'GET', url: '/v1/snapshot', headers: { 'x-cms-key': site.project.apiKey } });
  const save = (site: Site, payload: object) =>
    call(ctx.app, {
      method: 'POST',
      url: '/v1/objects/save',
      headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
      payload,
    });
  const item = (id: string) => ({ itemId: id, value: { url: `https://cdn.example.com/${id}.png`, alt: id } });

  before(async () => {
    a = await newProject(ctx.app, 'A');
    b = await newProject(ctx.app, 'B');
  });

  it('published objects appear sorted in the snapshot and change its version; drafts do not', async () => {
    const before = await snapshot(a);
    assert.equal(before.status, 200);
    assert.deepEqual(before.body.data.objectFields, []);

    await save(a, { objects: [{ type: 'product', id: 'p1', fields: { title: 'Draft only' } }] });
    const afterDraft = await snapshot(a);
    assert.equal(afterDraft.body.data.version, before.body.data.version);
    assert.deepEqual(afterDraft.body.data.objectFields, []);

    const res = await save(a, {
      status: 'published',
      objects: [
        {
          type: 'product',
          id: 'p2',
          fields: { title: 'Hat', seo: { title: 'Hat!' } },
          collections: { images: [item('y'), item('x')] },
        },
        { type: 'category', id: 'c1', fields: { name: 'Hats' } },
        {
          type: 'product',
          id: 'p1',
          fields: { title: 'Shirt', price: 12 },
          collections: { tags: [item('t')] },
        },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const after = await snapshot(a);
    assert.notEqual(after.body.data.version, before.body.data.version);
    assert.deepEqual(after.body.data.objectFields, [
      { type: 'category', id: 'c1', path: 'name', value: 'Hats' },
      { type: 'product', id: 'p1', path: 'price', value: 12 },
      { type: 'product', id: 'p1', path: 'title', value: 'Shirt' },
      { type: 'product', id: 'p2', path: 'seo.title', value: 'Hat!' },
      { type: 'product', id: 'p2', path: 'title', value: 'Hat' },
    ]);
    assert.deepEqual(after.body.data.objectCollections, [
      { type: 'product', id: 'p1', collection: 'tags', items: [item('t')] },
      { type: 'product', id: 'p2', collection: 'images', items: [item('y'), item('x')] },
    ]);
    assert.deepEqual(after.body.data.objectTypes, [
      { type: 'category', fields: ['name'], collections: [] },
      { type: 'product', fields: ['price', 'seo.title', 'title'], collections: ['images', 'tags'] },
    ]);

    // A draft change after publishing leaves the snapshot as it is.
    await save(a, {
      objects: [{ type: 'product', id: 'p1', fields: { title: 'Next' }, collections: { tags: [] } }],
    });
    assert.equal((await snapshot(a)).body.data.version, after.body.data.version);
  });

  it('the same published objects give the same version, whatever the order they were written in', async () => {
    await save(b, {
      status: 'published',
      objects: [{ type: 'category', id: 'c1', fields: { name: 'Hats' } }],
    });
    await save(b, {
      status: 'published',
      objects: [
        {
          type: 'product',
          id: 'p1',
          collections: { tags: [item('t')] },
          fields: { price: 12, title: 'Shirt' },
        },
        {
          type: 'product',
          id: 'p2',
          collections: { images: [item('y'), item('x')] },
          fields: { seo: { title: 'Hat!' }, title: 'Hat' },
        },
      ],
    });
    const [sa, sb] = [await snapshot(a), await snapshot(b)];
    assert.deepEqual(sb.body.data.objectFields, sa.body.data.objectFields);
    assert.equal(sb.body.data.version, sa.body.data.version);
  });

  it('a secret key reads the snapshot of its site', async () => {
    const key = await call(ctx.app, {
      method: 'POST',
      url: '/v1/api-keys',
      headers: bearer(a.admin.token),
      payload: { name: 'build', scope: 'all', access: 'read' },
    });
    const res = await call(ctx.app, {
      method: 'GET',
      url: '/v1/snapshot',
      headers: bearer(key.body.data.key),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.objectFields.length, 5);
  });
});
