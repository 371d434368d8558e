import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolio, FolioError, type Snapshot } from '../src/index.js';
import {
  countingFetch,
  dbKinds,
  newSite,
  ok,
  type RunningFolio,
  type Site,
  startFolio,
} from './harness/folio.js';

const hero = { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' as const }] };

/** A site with a published page and published objects, and its snapshot as the CLI writes it (the body). */
async function bakedSite(
  folio: RunningFolio,
): Promise<{ site: Site; file: { data: Snapshot; error: null } }> {
  const site = await newSite(folio);
  await createFolio({ url: folio.url, key: site.key }).register('/', [hero]);
  await site.edit('/', 'hero', { title: 'Baked title' });
  ok(
    await site.admin.POST('/v1/objects/save', {
      body: {
        status: 'published',
        objects: [
          {
            type: 'product',
            id: 'p1',
            fields: { name: 'Mug', seo: { title: 'A mug' } } as never,
            collections: { images: [{ itemId: 'i1', value: { url: 'https://cdn.example.com/mug.jpg' } }] },
          },
          { type: 'product', id: 'p0', fields: { name: 'Cup' } },
          { type: 'category', id: 'c1', fields: { name: 'Kitchen' } },
        ],
      },
    }),
  );
  const response = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': site.key } });
  return { site, file: JSON.parse(await response.text()) };
}

for (const kind of dbKinds()) {
  describe(`baked mode: reads from a snapshot [${kind}]`, () => {
    let folio: RunningFolio;
    before(async () => {
      folio = await startFolio(kind);
    });
    after(() => folio?.close());

    it('reads everything from the snapshot with the server stopped, and sends nothing', async () => {
      const own = await startFolio(kind);
      try {
        const { site, file } = await bakedSite(own);
        const live = createFolio({ url: own.url, key: site.key });
        const liveObjects = await live.objects();
        await own.stop();

        const wire = countingFetch();
        const errors: unknown[] = [];
        const sdk = createFolio({
          url: own.url,
          key: site.key,
          snapshot: file,
          fetch: wire.fetch,
          onError: (e) => errors.push(e),
        });
        assert.equal(sdk.baked, true);
        assert.deepEqual(
          (await sdk.page('/')).map((e) => [e.instanceKey, e.componentId, e.fields]),
          [['hero', 'Hero', { title: 'Baked title' }]],
        );
        assert.deepEqual(await sdk.page('/missing'), []);
        assert.deepEqual(sdk.peek('/'), await sdk.page('/'));
        assert.deepEqual(await sdk.snapshot(), file.data);
        // The same objects as the API answered, less updatedAt (the snapshot has none).
        assert.deepEqual(
          await sdk.objects(),
          liveObjects.map(({ updatedAt: _, ...rest }) => rest),
        );
        assert.deepEqual(
          (await sdk.objects({ types: ['product'] })).map((o) => o.id),
          ['p0', 'p1'],
        );
        assert.deepEqual(wire.requests, []);

        // Registering needs the server: it fails as a network error, to onError, and reads go on.
        await assert.rejects(
          sdk.register('/', [hero]),
          (e: unknown) => e instanceof FolioError && e.code === 'network',
        );
        assert.equal(errors.length, 1);
        assert.equal((await sdk.page('/')).length, 1);
      } finally {
        await own.close();
      }
    });

    it('accepts the snapshot without its envelope too', async () => {
      const { site, file } = await bakedSite(folio);
      const sdk = createFolio({ url: folio.url, key: site.key, snapshot: file.data });
      assert.equal(sdk.baked, true);
      assert.equal((await sdk.page('/'))[0]?.fields.title, 'Baked title');
    });

    it('reads live when the snapshot says bakeEnabled is false (the kill switch)', async () => {
      const { site } = await bakedSite(folio);
      await site.setBakeEnabled(false);
      const response = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': site.key } });
      const file = JSON.parse(await response.text());
      assert.equal(file.data.bakeEnabled, false);
      await site.edit('/', 'hero', { title: 'Fixed after the build' });

      const wire = countingFetch();
      const sdk = createFolio({ url: folio.url, key: site.key, snapshot: file, fetch: wire.fetch });
      assert.equal(sdk.baked, false);
      assert.deepEqual(
        (await sdk.page('/')).map((e) => e.fields),
        [{ title: 'Fixed after the build' }],
      );
      assert.equal((await sdk.snapshot()).bakeEnabled, false);
      assert.deepEqual(
        wire.requests.map((r) => r.path),
        ['/v1/content/%2F', '/v1/snapshot'],
      );
    });

    it('reads live drafts with a preview token, whatever the snapshot', async () => {
      const { site, file } = await bakedSite(folio);
      await site.edit('/', 'hero', { title: 'Draft title' }, 'draft');
      const sdk = createFolio({
        url: folio.url,
        key: site.key,
        snapshot: file,
        previewToken: await site.previewToken(),
      });
      assert.equal(sdk.baked, false);
      assert.deepEqual(
        (await sdk.page('/')).map((e) => e.fields),
        [{ title: 'Draft title' }],
      );
    });
  });
}
