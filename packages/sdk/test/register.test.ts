import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio, FolioError } from '../src/index.js';
import {
  countingFetch,
  dbKinds,
  newSite,
  ok,
  type RunningFolio,
  startFolio,
  waitFor,
} from './harness/folio.js';

const hero = { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' as const }] };
const price = {
  componentId: 'Price',
  instanceKey: 'price',
  fields: [{ key: 'amount', type: 'number' as const }],
};
const footer = {
  componentId: 'Footer',
  instanceKey: 'footer',
  fields: [{ key: 'note', type: 'richtext' as const }],
};

for (const kind of dbKinds()) {
  describe(`register: definitions sync, batched and deduplicated [${kind}]`, () => {
    let folio: RunningFolio;
    before(async () => {
      folio = await startFolio(kind);
    });
    after(() => folio?.close());

    it('sends the registrations of one page made in the same tick as one request, and creates stubs', async () => {
      const site = await newSite(folio);
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      const first = sdk.register('/', [hero]);
      const second = sdk.register('/', [price]);
      const third = sdk.register('/', [footer]);
      assert.equal(first, second, 'one batch, one promise');
      const result = await third;
      assert.deepEqual(wire.requests, [{ method: 'POST', path: '/v1/definitions/sync', status: 200 }]);
      assert.deepEqual(result?.created.sort(), ['footer', 'hero', 'price']);

      const editor = ok(await site.admin.GET('/v1/content/{id}', { params: { path: { id: '/' } } }));
      assert.deepEqual(
        editor.data.map((e) => [e.instanceKey, e.status]),
        // In page order: the order the components registered (mounted), kept by the one batch.
        [
          ['hero', 'draft'],
          ['price', 'draft'],
          ['footer', 'draft'],
        ],
      );
    });

    it('does not send again what this process already sent unchanged; sends only what is new or changed', async () => {
      const site = await newSite(folio);
      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      await sdk.register('/', [hero, price]);
      assert.equal(wire.requests.length, 1);

      // Remounts: the same set again, or a part of it, sends nothing.
      assert.equal(await sdk.register('/', [hero, price]), null);
      assert.equal(await sdk.register('/', [price]), null);
      assert.equal(wire.requests.length, 1);

      // A new field on hero and a new component: one request with just those two.
      const heroWithImage = { ...hero, fields: [...hero.fields, { key: 'image', type: 'image' as const }] };
      const result = await sdk.register('/', [heroWithImage, price, footer]);
      assert.equal(wire.requests.length, 2);
      assert.equal(result?.components, 2);
      assert.deepEqual(result?.created, ['footer']);

      // Another page is its own batch and its own set.
      await Promise.all([sdk.register('/about', [hero]), sdk.register('/', [footer])]);
      assert.deepEqual(
        wire.requests.map((r) => r.path),
        ['/v1/definitions/sync', '/v1/definitions/sync', '/v1/definitions/sync'],
      );
      const about = ok(await site.admin.GET('/v1/content/{id}', { params: { path: { id: '/about' } } }));
      assert.deepEqual(
        about.data.map((e) => e.instanceKey),
        ['hero'],
      );
    });

    it('two SDKs (two tabs) each send their set once', async () => {
      const site = await newSite(folio);
      const wire = countingFetch();
      const tabA = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      const tabB = createFolio({ url: folio.url, key: site.key, fetch: wire.fetch });
      await Promise.all([tabA.register('/', [hero]), tabB.register('/', [hero])]);
      await Promise.all([tabA.register('/', [hero]), tabB.register('/', [hero])]);
      assert.equal(wire.requests.length, 2);
    });

    it('a failed sync rejects with the typed error, goes to onError, and is sent again next time', async () => {
      const site = await newSite(folio);
      const wire = countingFetch();
      const errors: unknown[] = [];
      const sdk = createFolio({
        url: folio.url,
        key: site.key,
        fetch: wire.fetch,
        onError: (e) => errors.push(e),
      });
      // A type the API does not know (a site built against another version, say): 400.
      const odd = {
        componentId: 'Odd',
        instanceKey: 'odd',
        fields: [{ key: 'x', type: 'colour' as 'text' }],
      };
      await assert.rejects(sdk.register('/', [odd]), (error: unknown) => {
        assert.ok(error instanceof FolioError);
        assert.equal(error.code, 'validation_failed');
        assert.equal(error.status, 400);
        return true;
      });
      assert.equal(errors.length, 1);
      await assert.rejects(sdk.register('/', [odd]), FolioError);
      assert.equal(wire.requests.length, 2, 'not remembered as sent');

      // Nobody awaits this one: the failure still goes to onError, and nothing is unhandled.
      void sdk.register('/', [odd]);
      await waitFor(() => errors.length === 3, 5000, 'the third failure on onError');
    });

    it('in additive mode, what the key may not change comes back as rejected, not as an error', async () => {
      const site = await newSite(folio);
      const sdk = createFolio({ url: folio.url, key: site.key });
      await sdk.register('/', [hero]);
      const retyped = { ...hero, fields: [{ key: 'title', type: 'number' as const }] };
      const result = await sdk.register('/', [retyped]);
      assert.equal(result?.rejected.length, 1);
      assert.equal(result?.rejected[0]?.instanceKey, 'hero');
    });
  });
}
