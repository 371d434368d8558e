import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, pageUrl, type Site, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { localizedSite } from '../helpers/locales.js';
import { openLive } from '../helpers/sse.js';

/**
 * Field keys are data, never object members (contract §23, issue 42 item 9): keys that name what
 * every object inherits (`constructor`, `toString`, `valueOf`, `hasOwnProperty`) behave as any other
 * key. `key in fields` found the inherited member, so localized fields of those names vanished from
 * every read. `__proto__` stays refused where JSON is parsed.
 */
const KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'] as const;
const LOCALES = { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] };

const component = (localized: boolean) => ({
  componentId: 'Odd',
  instanceKey: 'odd',
  fields: [
    ...KEYS.map((key) => ({ key, type: 'text', localized })),
    { key: 'title', type: 'text', localized },
  ],
});
const valuesIn = (label: string, keys: readonly string[] = KEYS) =>
  Object.fromEntries(keys.map((k) => [k, `${label} ${k}`]));
type Fields = Record<string, unknown>;

describeEachDb('field keys named like object members', (ctx) => {
  let base = '';
  before(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await ctx.app.close();
  });

  const get = (site: Site, url: string, headers: Fields = site.key) =>
    call(ctx.app, { method: 'GET', url, headers: headers as Record<string, string> });

  async function publishIn(site: Site, id: string, locale: string, fields: Fields) {
    const res = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${id}?locale=${locale}`,
      headers: site.editing,
      payload: { fields, status: 'published' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  }

  it('localized fields named constructor, toString, valueOf, hasOwnProperty: every read in both locales, with fallback', async () => {
    const { site, id } = await localizedSite(ctx.app, LOCALES, [component(true)]);
    const en = { ...valuesIn('en'), title: 'en title' };
    // fr has its own values for two of the keys; the others fall back to en.
    const frOwn = valuesIn('fr', ['constructor', 'valueOf']);
    const fr = { ...en, ...frOwn };
    const written = await publishIn(site, id, 'en', en);
    assert.deepEqual(written.fields, en);
    assert.deepEqual((await publishIn(site, id, 'fr', frOwn)).fields, fr);

    // Editors, each locale (fallbacks name where a value came from).
    const editorEn = await get(site, `${pageUrl('/')}?locale=en`, site.editing);
    assert.deepEqual(editorEn.body.data[0].fields, en);
    const editorFr = await get(site, `${pageUrl('/')}?locale=fr`, site.editing);
    assert.deepEqual(editorFr.body.data[0].fields, fr);
    assert.deepEqual(editorFr.body.data[0].fallbacks, { toString: 'en', hasOwnProperty: 'en', title: 'en' });
    const entry = await get(site, `/v1/entries/${id}?locale=fr`, site.editing);
    assert.deepEqual(entry.body.data.fields, fr);

    // Visitors, each locale, with and without fallback.
    assert.deepEqual((await get(site, `${pageUrl('/')}?locale=en`)).body.data[0].fields, en);
    assert.deepEqual((await get(site, `${pageUrl('/')}?locale=fr`)).body.data[0].fields, fr);
    assert.deepEqual(
      (await get(site, `${pageUrl('/')}?locale=fr&fallback=false`)).body.data[0].fields,
      frOwn,
    );

    // Snapshots: one locale and every locale.
    const snapFr = await get(site, '/v1/snapshot?locale=fr');
    assert.deepEqual(snapFr.body.data.content['/'][0].fields, fr);
    const snapAll = await get(site, '/v1/snapshot?locale=*');
    assert.deepEqual(snapAll.body.data.locales.en['/'][0].fields, en);
    assert.deepEqual(snapAll.body.data.locales.fr['/'][0].fields, fr);

    // A live stream in fr gets the same entry a visitor reads.
    const live = await openLive(base, '/', site.key, '&locale=fr');
    try {
      assert.equal(live.status, 200);
      assert.deepEqual(JSON.parse((await live.nextChange()).data).fields, fr);
    } finally {
      live.close();
    }

    // Removing a value in fr (null) falls back again; the fr copy keeps the other own value.
    const removed = await publishIn(site, id, 'fr', { constructor: null });
    assert.deepEqual(removed.fields, { ...fr, constructor: 'en constructor' });
  });

  it('the same keys on a project without locales: written, merge-patched, read and in the snapshot', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [component(false)]);
    const [entry] = await editorEntries(ctx.app, site, '/');
    const fields = { ...valuesIn('plain'), title: 'plain title' };
    const res = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${entry?.id}`,
      headers: site.editing,
      payload: { fields, status: 'published' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.fields, fields);
    assert.deepEqual((await editorEntries(ctx.app, site, '/'))[0]?.fields, fields);
    assert.deepEqual((await get(site, pageUrl('/'))).body.data[0].fields, fields);
    assert.deepEqual((await get(site, '/v1/snapshot')).body.data.content['/'][0].fields, fields);
    // A merge patch removes one of them like any key.
    const patched = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${entry?.id}`,
      headers: site.editing,
      payload: { fields: { toString: null } },
    });
    assert.equal(patched.status, 200);
    const { toString: _gone, ...rest } = fields;
    assert.deepEqual(patched.body.data.fields, rest);
  });

  it('reference fields named constructor and valueOf are written, resolved for visitors and read back', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [
      {
        componentId: 'Linked',
        instanceKey: 'linked',
        fields: [
          { key: 'constructor', type: 'reference' },
          { key: 'valueOf', type: 'reference', multiple: true },
          { key: 'title', type: 'text' },
        ],
      },
    ]);
    await sync(ctx.app, site, '/target', [
      { componentId: 'T', instanceKey: 't', fields: [{ key: 'title', type: 'text' }] },
    ]);
    const [target] = await editorEntries(ctx.app, site, '/target');
    const [linked] = await editorEntries(ctx.app, site, '/');
    const publish = (id: string, fields: Fields) =>
      call(ctx.app, {
        method: 'PATCH',
        url: `/v1/content/${id}`,
        headers: site.editing,
        payload: { fields, status: 'published' },
      });
    assert.equal((await publish(target!.id, { title: 'Target' })).status, 200);
    // A first write of `title` alone: the stored copies lack the reference keys (they found Object's).
    assert.equal((await publish(linked!.id, { title: 'x' })).status, 200);
    const res = await publish(linked!.id, { constructor: target!.id, valueOf: [target!.id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const visitor = (await get(site, pageUrl('/'))).body.data[0].fields;
    assert.equal(visitor.constructor.fields.title, 'Target');
    assert.equal(visitor.valueOf[0].fields.title, 'Target');
    assert.deepEqual((await editorEntries(ctx.app, site, '/'))[0]?.fields, {
      title: 'x',
      constructor: target!.id,
      valueOf: [target!.id],
    });
  });

  it('objects keep fields and collections named constructor, toString and valueOf', async () => {
    const site = await newSite(ctx.app);
    const admin = { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id };
    const fields = { ...valuesIn('obj'), nested: { constructor: 'deep', valueOf: 'deeper' } };
    const saved = await call(ctx.app, {
      method: 'POST',
      url: '/v1/objects/save',
      headers: admin,
      payload: {
        status: 'published',
        objects: [
          {
            type: 'product',
            id: 'p1',
            fields,
            collections: {
              constructor: [{ itemId: 'i1', value: { a: 1 } }],
              toString: [{ itemId: 'i2', value: { b: 2 } }],
            },
          },
        ],
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const expected = {
      ...valuesIn('obj'),
      'nested.constructor': 'deep',
      'nested.valueOf': 'deeper',
    };
    const published = await get(site, '/v1/objects?types=product');
    assert.equal(published.status, 200, JSON.stringify(published.body));
    assert.deepEqual(published.body.data[0].fields, expected);
    assert.deepEqual(published.body.data[0].collections, {
      constructor: [{ itemId: 'i1', value: { a: 1 } }],
      toString: [{ itemId: 'i2', value: { b: 2 } }],
    });
    const draft = await get(site, '/v1/objects?draft=true&types=product', admin);
    assert.deepEqual(draft.body.data[0].fields, expected);
    assert.deepEqual(Object.keys(draft.body.data[0].collections), ['constructor', 'toString']);
    const snap = await get(site, '/v1/snapshot');
    assert.equal(snap.status, 200);
    assert.ok(JSON.stringify(snap.body.data).includes('obj constructor'));
  });

  it('__proto__ is refused where JSON is parsed, as before', async () => {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/', [component(false)]);
    const [entry] = await editorEntries(ctx.app, site, '/');
    const res = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/content/${entry?.id}`,
      headers: { ...site.editing, 'content-type': 'application/json' },
      payload: '{"fields":{"__proto__":{"x":1}}}',
    });
    assert.equal(res.status, 400);
    const synced = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: { ...site.key, 'content-type': 'application/json' },
      payload:
        '{"pageId":"/","components":[{"componentId":"A","instanceKey":"a","fields":[{"__proto__":{"x":1},"key":"x","type":"text"}]}]}',
    });
    assert.equal(synced.status, 400);
    // As a declared key (a string, so JSON carries it): refused too, since no value could be written.
    const declared = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: site.editing,
      payload: {
        pageId: '/',
        components: [
          {
            componentId: 'A',
            instanceKey: 'b',
            fields: [{ key: '__proto__', type: 'json', default: { x: 1 } }],
          },
        ],
      },
    });
    assert.equal(declared.status, 400, JSON.stringify(declared.body));
    assert.equal(declared.body.error.details[0].path, 'body.components[0].fields[0].key');
  });
});
