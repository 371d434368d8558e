import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newMember, newProject } from '../helpers/factories.js';

type Site = Awaited<ReturnType<typeof newProject>>;

describeEachDb('objects', (ctx) => {
  let site: Site;
  let writeKey: string;

  const asAdmin = () => ({ ...bearer(site.admin.token), 'x-cms-project-id': site.project.id });
  const save = (payload: unknown, headers: Record<string, string> = asAdmin()) =>
    call(ctx.app, { method: 'POST', url: '/v1/objects/save', headers, payload: payload as object });
  const read = (query = '', headers: Record<string, string> = { 'x-cms-key': site.project.apiKey }) =>
    call(ctx.app, { method: 'GET', url: `/v1/objects${query}`, headers });
  const draftRead = (query = '') => read(`?draft=true${query ? `&${query}` : ''}`, asAdmin());
  const find = (list: any[], type: string, id: string) => list.find((o) => o.type === type && o.id === id);

  before(async () => {
    site = await newProject(ctx.app, 'Objects site');
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/api-keys',
      headers: bearer(site.admin.token),
      payload: { name: 'writer', scope: 'selected', projectIds: [site.project.id], access: 'write' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    writeKey = res.body.data.key;
  });

  it('a save without status is a draft: only the draft overlay shows it', async () => {
    const res = await save({
      objects: [{ type: 'product', id: 'p1', fields: { title: 'Shirt', price: 10 } }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, {
      status: 'draft',
      objects: 1,
      fields: { inserted: 2, updated: 0 },
      items: { inserted: 0, updated: 0, removed: 0 },
    });
    assert.equal(find((await read('?types=product')).body.data, 'product', 'p1'), undefined);
    const draft = await draftRead('types=product');
    assert.equal(draft.status, 200);
    assert.deepEqual(find(draft.body.data, 'product', 'p1').fields, { price: 10, title: 'Shirt' });
  });

  it('the publishable key cannot read drafts (403); a secret key can', async () => {
    const res = await read('?draft=true');
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'forbidden');
    const withKey = await read('?draft=true&types=product', bearer(writeKey));
    assert.equal(withKey.status, 200);
    assert.ok(find(withKey.body.data, 'product', 'p1'));
  });

  it('a published save is visible everywhere, flattens nested objects and writes an objects.published event', async () => {
    const res = await save(
      {
        status: 'published',
        objects: [
          {
            type: 'product',
            id: 'p1',
            fields: {
              title: 'Linen shirt',
              seo: { title: 'Shirt | Shop', meta: { robots: 'index' } },
              onSale: false,
              note: null,
            },
          },
        ],
      },
      bearer(writeKey),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.fields, { inserted: 4, updated: 1 });
    const pub = find((await read('?types=product')).body.data, 'product', 'p1');
    // price was saved as a draft only and was not sent now: it stays a draft.
    assert.deepEqual(pub.fields, {
      note: null,
      onSale: false,
      'seo.meta.robots': 'index',
      'seo.title': 'Shirt | Shop',
      title: 'Linen shirt',
    });
    assert.equal(find((await draftRead()).body.data, 'product', 'p1').fields.price, 10);
    const events = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('projectId', '=', site.project.id)
      .where('type', '=', 'objects.published')
      .execute();
    assert.equal(events.length, 1);
    assert.deepEqual(JSON.parse(events[0]!.data).objects, [{ type: 'product', id: 'p1' }]);
  });

  it('a draft over a published value leaves the published view alone until published', async () => {
    await save({ objects: [{ type: 'product', id: 'p1', fields: { title: 'Draft title' } }] });
    assert.equal(find((await read()).body.data, 'product', 'p1').fields.title, 'Linen shirt');
    assert.equal(find((await draftRead()).body.data, 'product', 'p1').fields.title, 'Draft title');
    await save({ objects: [{ type: 'product', id: 'p1', status: 'published', fields: { title: 'Final' } }] });
    assert.equal(find((await read()).body.data, 'product', 'p1').fields.title, 'Final');
    assert.equal(find((await draftRead()).body.data, 'product', 'p1').fields.title, 'Final');
  });

  it('collections become exactly the items sent, in order: reorder, removal, drafts', async () => {
    const item = (id: string, n: number) => ({
      itemId: id,
      value: { url: `https://cdn.example.com/${id}.jpg`, n },
    });
    const ids = (list: any[]) => list.map((i) => i.itemId);
    let res = await save({
      status: 'published',
      objects: [
        {
          type: 'product',
          id: 'p2',
          fields: { title: 'Hat' },
          collections: { images: [item('a', 1), item('b', 2), item('c', 3)], tags: [item('t1', 1)] },
        },
      ],
    });
    assert.deepEqual(res.body.data.items, { inserted: 4, updated: 0, removed: 0 });

    // Reorder and drop one; `tags` is not sent and stays.
    res = await save({
      status: 'published',
      objects: [{ type: 'product', id: 'p2', collections: { images: [item('c', 30), item('a', 10)] } }],
    });
    assert.deepEqual(res.body.data.items, { inserted: 0, updated: 2, removed: 1 });
    let p2 = find((await read()).body.data, 'product', 'p2');
    assert.deepEqual(ids(p2.collections.images), ['c', 'a']);
    assert.equal(p2.collections.images[0].value.n, 30);
    assert.deepEqual(ids(p2.collections.tags), ['t1']);
    assert.equal(p2.fields.title, 'Hat');

    // A draft replacement changes only the draft view.
    res = await save({
      objects: [{ type: 'product', id: 'p2', collections: { images: [item('d', 4), item('a', 11)] } }],
    });
    assert.deepEqual(res.body.data.items, { inserted: 1, updated: 1, removed: 1 });
    p2 = find((await read()).body.data, 'product', 'p2');
    assert.deepEqual(ids(p2.collections.images), ['c', 'a']);
    assert.equal(p2.collections.images[1].value.n, 10);
    const d2 = find((await draftRead()).body.data, 'product', 'p2');
    assert.deepEqual(ids(d2.collections.images), ['d', 'a']);
    assert.equal(d2.collections.images[1].value.n, 11);

    // Publishing one item: both views hold exactly that item.
    await save({
      status: 'published',
      objects: [{ type: 'product', id: 'p2', collections: { images: [item('b', 5)] } }],
    });
    assert.deepEqual(ids(find((await read()).body.data, 'product', 'p2').collections.images), ['b']);
    assert.deepEqual(ids(find((await draftRead()).body.data, 'product', 'p2').collections.images), ['b']);

    // An empty collection empties it.
    res = await save({
      status: 'published',
      objects: [{ type: 'product', id: 'p2', collections: { tags: [] } }],
    });
    assert.equal(res.body.data.items.removed, 1);
    assert.equal(find((await read()).body.data, 'product', 'p2').collections.tags, undefined);
    const rows = await ctx.db
      .selectFrom('objectItems')
      .select('itemId')
      .where('projectId', '=', site.project.id)
      .where('objectId', '=', 'p2')
      .execute();
    assert.deepEqual(rows.map((r) => r.itemId).sort(), ['b']);
  });

  it('filters by types and orders objects by type then id', async () => {
    await save({
      status: 'published',
      objects: [
        { type: 'category', id: 'z', fields: { name: 'Z' } },
        { type: 'category', id: 'a', fields: { name: 'A' } },
      ],
    });
    const res = await read('?types=category,page');
    assert.deepEqual(
      res.body.data.map((o: any) => `${o.type}/${o.id}`),
      ['category/a', 'category/z'],
    );
    const all = await read();
    assert.deepEqual(
      all.body.data.map((o: any) => o.type),
      ['category', 'category', 'product', 'product'],
    );
    assert.equal((await read('?types=bad%20type')).status, 400);
  });

  it('an editor session can save; a read key cannot (403)', async () => {
    const editor = await newMember(ctx.app, site.admin.token, site.project.id, 'editor');
    const ok = await save(
      { objects: [{ type: 'note', id: 'n1', fields: { body: 'x' } }] },
      bearer(editor.token),
    );
    assert.equal(ok.status, 200);
    const key = await call(ctx.app, {
      method: 'POST',
      url: '/v1/api-keys',
      headers: bearer(site.admin.token),
      payload: { name: 'reader', scope: 'all', access: 'read' },
    });
    const denied = await save({ objects: [{ type: 'note', id: 'n1' }] }, bearer(key.body.data.key));
    assert.equal(denied.status, 403);
    const reads = await read('?types=note&draft=true', bearer(key.body.data.key));
    assert.equal(reads.status, 200);
  });

  it('another project never sees these objects', async () => {
    const other = await newProject(ctx.app, 'Other');
    const res = await read('', { 'x-cms-key': other.project.apiKey });
    assert.deepEqual(res.body.data, []);
    const drafts = await read('?draft=true', { ...bearer(other.admin.token) });
    assert.deepEqual(drafts.body.data, []);
  });

  it('refuses bad input with a clear 400 and writes nothing', async () => {
    const cases: [string, unknown][] = [
      ['too many objects', { objects: Array.from({ length: 1001 }, (_, i) => ({ type: 't', id: `o${i}` })) }],
      ['array field', { objects: [{ type: 't', id: 'x', fields: { list: [1, 2] } }] }],
      [
        'deep nesting',
        {
          objects: [
            { type: 't', id: 'x', fields: { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } } },
          ],
        },
      ],
      [
        'duplicate object',
        {
          objects: [
            { type: 't', id: 'x' },
            { type: 't', id: 'x' },
          ],
        },
      ],
      [
        'duplicate item',
        {
          objects: [
            {
              type: 't',
              id: 'x',
              collections: {
                c: [
                  { itemId: 'a', value: {} },
                  { itemId: 'a', value: {} },
                ],
              },
            },
          ],
        },
      ],
      [
        'too many items',
        {
          objects: [
            {
              type: 't',
              id: 'x',
              collections: { c: Array.from({ length: 1001 }, (_, i) => ({ itemId: `i${i}`, value: {} })) },
            },
          ],
        },
      ],
      ['long value', { objects: [{ type: 't', id: 'x', fields: { v: 'x'.repeat(16_385) } }] }],
      ['long type', { objects: [{ type: 't'.repeat(65), id: 'x' }] }],
      ['long id', { objects: [{ type: 't', id: 'x'.repeat(201) }] }],
      ['long path', { objects: [{ type: 't', id: 'x', fields: { ['p'.repeat(201)]: 1 } }] }],
      [
        'same path twice',
        { objects: [{ type: 't', id: 'x', fields: { 'seo.title': 'a', seo: { title: 'b' } } }] },
      ],
      ['bad status', { status: 'live', objects: [{ type: 't', id: 'x' }] }],
      ['no objects', { objects: [] }],
      ['unknown property', { objects: [{ type: 't', id: 'x', extra: 1 }] }],
      [
        'item value not an object',
        { objects: [{ type: 't', id: 'x', collections: { c: [{ itemId: 'a', value: 3 }] } }] },
      ],
      ['NUL in a value', { objects: [{ type: 't', id: 'x', fields: { v: 'a\u0000b' } }] }],
      [
        'lone surrogate in an item',
        { objects: [{ type: 't', id: 'x', collections: { c: [{ itemId: 'a', value: { s: '\ud800' } }] } }] },
      ],
      ['lone surrogate in an id', { objects: [{ type: 't', id: 'x\udc00' }] }],
      [
        'deep item value',
        {
          objects: [
            {
              type: 't',
              id: 'x',
              collections: {
                c: [{ itemId: 'a', value: JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`) }],
              },
            },
          ],
        },
      ],
    ];
    for (const [name, body] of cases) {
      const res = await save(body);
      assert.equal(res.status, 400, `${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.equal(res.body.error.code, 'validation_failed', name);
      assert.ok(Array.isArray(res.body.error.details) && res.body.error.details.length > 0, name);
    }
    const rows = await ctx.db
      .selectFrom('objects')
      .select('type')
      .where('projectId', '=', site.project.id)
      .where('type', '=', 't')
      .execute();
    assert.equal(rows.length, 0);
  });

  it('ten concurrent saves of the same objects never duplicate rows or mix collections', async () => {
    const objectIds = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    const body = (client: number) => ({
      status: client % 2 === 0 ? 'published' : 'draft',
      objects: objectIds.map((id) => ({
        type: 'race',
        id,
        fields: { client, [`only${client}`]: true },
        collections: {
          // Each client sends its own item ids and its own order.
          list: Array.from({ length: 3 + client }, (_, j) => ({
            itemId: `k${client}-${j}`,
            value: { client, j },
          })),
        },
      })),
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, client) => save(body(client), bearer(writeKey))),
    );
    for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));

    const drafts = (await draftRead('types=race')).body.data as any[];
    assert.equal(drafts.length, 20);
    // Saves serialise per object set: the last to commit wins whole, for every object.
    const winner = drafts[0].fields.client;
    for (const o of drafts) {
      assert.equal(o.fields.client, winner);
      assert.deepEqual(
        o.collections.list.map((i: any) => i.itemId),
        Array.from({ length: 3 + winner }, (_, j) => `k${winner}-${j}`),
      );
    }
    const objects = await ctx.db
      .selectFrom('objects')
      .select('objectId')
      .where('type', '=', 'race')
      .execute();
    assert.equal(objects.length, 20);
    const fieldRows = await ctx.db
      .selectFrom('objectFields')
      .select(['objectId', 'path'])
      .where('type', '=', 'race')
      .where('path', '=', 'client')
      .execute();
    assert.equal(fieldRows.length, 20);
    // Every item row left belongs to a collection that some view shows.
    const items = await ctx.db.selectFrom('objectItems').selectAll().where('type', '=', 'race').execute();
    for (const i of items) assert.ok(i.draftPosition !== null || i.publishedPosition !== null);
    const published = (await read('?types=race')).body.data as any[];
    for (const o of published) {
      const c = o.fields.client;
      assert.equal(c % 2, 0);
      assert.deepEqual(
        o.collections.list.map((i: any) => i.itemId),
        Array.from({ length: 3 + c }, (_, j) => `k${c}-${j}`),
      );
    }
  });
});
