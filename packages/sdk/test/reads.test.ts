import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio } from '../src/index.js';
import { countingFetch, dbKinds, newSite, ok, type RunningFolio, startFolio } from './harness/folio.js';

const hero = { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' as const }] };
const cta = { componentId: 'Cta', instanceKey: 'cta', fields: [{ key: 'label', type: 'text' as const }] };

for (const kind of dbKinds()) {
  describe(`reads: page, snapshot, objects [${kind}]`, () => {
    let folio: RunningFolio;
    before(async () => {
      folio = await startFolio(kind);
    });
    after(() => folio?.close());

    it('an unchanged page costs exactly one request, answered 304; a publish is seen at once', async () => {
      const site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/', [hero]);
      await site.edit('/', 'hero', { title: 'Hello' });

      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      const first = await sdk.page('/');
      assert.deepEqual(
        first.map((e) => [e.instanceKey, e.fields]),
        [['hero', { title: 'Hello' }]],
      );
      const again = await sdk.page('/');
      assert.deepEqual(again, first);
      assert.deepEqual(
        wire.requests.map((r) => r.status),
        [200, 304],
      );

      await site.edit('/', 'hero', { title: 'Hello again' });
      const changed = await sdk.page('/');
      assert.deepEqual(changed[0]?.fields, { title: 'Hello again' });
      assert.deepEqual(
        wire.requests.map((r) => r.status),
        [200, 304, 200],
      );
      assert.deepEqual(sdk.peek('/'), changed);
      assert.equal(sdk.peek('/nowhere'), undefined);
    });

    it('concurrent reads of one page share one request', async () => {
      const site = await newSite(folio);
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      const [a, b, c] = await Promise.all([sdk.page('/'), sdk.page('/'), sdk.page('/')]);
      assert.equal(wire.requests.length, 1);
      assert.deepEqual([a, b, c], [[], [], []]);
    });

    it('visitors see published fields only; with a preview token, drafts and working copies', async () => {
      const site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/', [hero, cta]);
      await site.edit('/', 'hero', { title: 'Live title' });
      await site.edit('/', 'hero', { title: 'Next title' }, 'draft');
      await site.edit('/', 'cta', { label: 'Buy' }, 'draft');

      const visitor = createFolio({ url: folio.url, key: site.key });
      assert.equal(visitor.preview, false);
      assert.deepEqual(
        (await visitor.page('/')).map((e) => [e.instanceKey, e.fields, e.status]),
        [['hero', { title: 'Live title' }, 'published']],
      );

      const wire = countingFetch();
      const previewer = createFolio({
        url: folio.url,
        key: site.key,
        previewToken: await site.previewToken(),
        fetch: wire.fetch,
      });
      assert.equal(previewer.preview, true);
      const drafts = await previewer.page('/');
      assert.deepEqual(
        drafts.map((e) => [e.instanceKey, e.fields, e.status]),
        // In page order: the order the site registered its components.
        [
          ['hero', { title: 'Next title' }, 'draft'],
          ['cta', { label: 'Buy' }, 'draft'],
        ],
      );
      // Preview answers are private and not kept: the next read is a full one, never a 304 of drafts.
      await previewer.page('/');
      assert.deepEqual(
        wire.requests.map((r) => r.status),
        [200, 200],
      );
    });

    it('snapshot and objects: published data, revalidated with If-None-Match; drafts with a preview token', async () => {
      const site = await newSite(folio);
      await createFolio({ url: folio.url, key: site.key }).register('/', [hero]);
      await site.edit('/', 'hero', { title: 'Hello' });
      ok(
        await site.admin.POST('/v1/objects/save', {
          body: {
            status: 'published',
            objects: [
              { type: 'product', id: 'p1', fields: { name: 'Mug', price: 12 } },
              { type: 'category', id: 'c1', fields: { name: 'Kitchen' } },
            ],
          },
        }),
      );
      ok(
        await site.admin.POST('/v1/objects/save', {
          body: { objects: [{ type: 'product', id: 'p1', fields: { price: 10 } }] },
        }),
      );

      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      const snapshot = await sdk.snapshot();
      assert.deepEqual(snapshot.content['/']?.[0]?.fields, { title: 'Hello' });
      assert.equal(snapshot.bakeEnabled, true);
      assert.deepEqual(await sdk.snapshot(), snapshot);

      const products = await sdk.objects({ types: ['product'] });
      assert.deepEqual(
        products.map((o) => [o.type, o.id, o.fields]),
        [['product', 'p1', { name: 'Mug', price: 12 }]],
      );
      assert.equal((await sdk.objects()).length, 2);
      assert.deepEqual(
        wire.requests.map((r) => [r.path, r.status]),
        [
          ['/v1/snapshot', 200],
          ['/v1/snapshot', 304],
          ['/v1/objects?types=product', 200],
          ['/v1/objects', 200],
        ],
      );

      const previewer = createFolio({
        url: folio.url,
        key: site.key,
        previewToken: await site.previewToken(),
      });
      const drafts = await previewer.objects({ types: ['product'], draft: true });
      assert.deepEqual(drafts[0]?.fields, { name: 'Mug', price: 10 });
    });
  });
}
