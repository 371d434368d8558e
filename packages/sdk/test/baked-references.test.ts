import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  component,
  createFolio,
  json,
  list,
  type PageEntry,
  reference,
  type Snapshot,
} from '../src/index.js';
import { dbKinds, newSite, ok, type RunningFolio, startFolio } from './harness/folio.js';

/**
 * Baked mode resolves references from the snapshot and gives exactly what a live read gives
 * (contract §13, §17): the same page read both ways is deep-equal at every depth, with a cycle and a
 * target the snapshot does not hold (never published).
 */
const Person = component('Person', { name: 'text' });
const Testimonial = component('Testimonial', {
  quote: 'text',
  author: reference(Person),
  seeAlso: reference(),
});
const Picks = component('Picks', {
  heading: 'text',
  featured: reference(Testimonial),
  picks: reference(Testimonial, { multiple: true }),
  rows: list({ ref: reference() }),
});
const components = [Person, Testimonial, Picks];

/** What both reads must agree on: the snapshot has no versions or statuses. */
const comparable = (entries: PageEntry[]) =>
  entries.map(({ id, instanceKey, componentId, fields }) => ({ id, instanceKey, componentId, fields }));

for (const kind of dbKinds()) {
  describe(`baked mode: references [${kind}]`, () => {
    let folio: RunningFolio;
    before(async () => {
      folio = await startFolio(kind);
    });
    after(() => folio?.close());

    it('reads the same page from the snapshot as from the API, at depths 0 to 3', async () => {
      const site = await newSite(folio);
      const live = createFolio({ url: folio.url, key: site.key });
      await live.register('@site', [
        { ...Person, instanceKey: 'ada' },
        { ...Person, instanceKey: 'grace' },
        { ...Person, instanceKey: 'ghost' },
        { ...Testimonial, instanceKey: 'q1' },
        { ...Testimonial, instanceKey: 'q2' },
      ]);
      await live.register('/', [{ ...Picks, instanceKey: 'picks' }]);
      const id = (key: string) => site.entryId('@site', key);
      const [ada, grace, ghost, q1, q2] = await Promise.all(['ada', 'grace', 'ghost', 'q1', 'q2'].map(id));
      await site.edit('@site', 'ada', { name: 'Ada' });
      await site.edit('@site', 'grace', { name: 'Grace' });
      await site.edit('@site', 'ghost', { name: 'Never published' }, 'draft');
      await site.edit('@site', 'q1', { quote: 'Fast.', author: ada, seeAlso: q2 }); // a cycle of two
      await site.edit('@site', 'q2', { quote: 'Safe.', author: grace, seeAlso: q2 }); // and of one
      await site.edit('/', 'picks', {
        heading: 'Loved by teams',
        featured: q1,
        picks: [q1, q2],
        rows: [{ ref: ada }, { ref: ghost }, { ref: q1 }],
      });

      const response = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': site.key } });
      const file = JSON.parse(await response.text()) as { data: Snapshot; error: null };
      const baked = createFolio({ url: folio.url, key: site.key, snapshot: file, components });
      assert.equal(baked.baked, true);

      for (const depth of [undefined, 0, 1, 2, 3]) {
        for (const pageId of ['/', '@site']) {
          const options = depth === undefined ? {} : { depth };
          assert.deepEqual(
            comparable(await baked.page(pageId, options)),
            comparable(await live.page(pageId, options)),
            `${pageId} at depth ${depth}`,
          );
        }
      }
      // What they agree on is resolved: depth 1 by default, the unpublished target left out or null.
      const [picks] = await baked.page('/');
      const at = (entry: PageEntry | undefined, ...path: (string | number)[]): unknown =>
        path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | null)?.[k], entry?.fields);
      assert.equal(at(picks, 'featured', 'fields', 'quote'), 'Fast.');
      assert.deepEqual(at(picks, 'featured', 'fields', 'author'), { id: ada });
      assert.equal(at(picks, 'rows', 1, 'ref'), null);
      assert.equal(at(picks, 'rows', 0, 'ref', 'fields', 'name'), 'Ada');
      const [two] = await baked.page('/', { depth: 2 });
      assert.equal(at(two, 'featured', 'fields', 'author', 'fields', 'name'), 'Ada');
      assert.equal(at(baked.peek('/')?.[0], 'featured', 'id'), q1);
    });

    it('an object kept when a json field became a reference is left out, baked as live (contract §23)', async () => {
      const site = await newSite(folio);
      const live = createFolio({ url: folio.url, key: site.key });
      const Shelf = component('Shelf', { refs: json() });
      await live.register('@site', [{ ...Person, instanceKey: 'ada' }]);
      await live.register('/', [{ ...Shelf, instanceKey: 'shelf' }]);
      const ada = await site.entryId('@site', 'ada');
      await site.edit('@site', 'ada', { name: 'Ada' });
      const fake = { id: ada, pageId: '@site', componentId: 'Person', fields: { name: 'FAKE' } };
      await site.edit('/', 'shelf', { refs: [fake, 123, ada] });
      // A member's sync makes it a multiple reference; the published copy keeps the stored items.
      const Shelved = component('Shelf', { refs: reference(Person, { multiple: true }) });
      ok(
        await site.admin.POST('/v1/definitions/sync', {
          body: {
            pageId: '/',
            components: [
              {
                componentId: 'Shelf',
                instanceKey: 'shelf',
                fields: [{ key: 'refs', type: 'reference', multiple: true, componentIds: ['Person'] }],
              },
            ],
          },
        }),
      );
      const response = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': site.key } });
      const file = JSON.parse(await response.text()) as { data: Snapshot; error: null };
      const baked = createFolio({
        url: folio.url,
        key: site.key,
        snapshot: file,
        components: [Person, Shelved],
      });
      for (const depth of [0, 1]) {
        const [fromSnapshot] = await baked.page('/', { depth });
        const [fromApi] = await live.page('/', { depth });
        assert.deepEqual(fromSnapshot?.fields, fromApi?.fields, `depth ${depth}`);
        const refs = fromSnapshot?.fields.refs as { id: string; fields?: { name: string } }[];
        assert.deepEqual(
          refs.map((r) => r.id),
          [ada],
        );
        assert.doesNotMatch(JSON.stringify(fromSnapshot), /FAKE/);
      }
    });

    it('spends the same budget as the API: 1,000 occurrences, 5 MiB counted in UTF-8 bytes, in the same order', async () => {
      const Note = component('Note', { text: 'text', items: list({ ref: reference() }) });
      const Big = component('Big', { parts: list({ t: 'text' }) });
      const site = await newSite(folio);
      const live = createFolio({ url: folio.url, key: site.key });
      await live.register('@site', [
        { ...Note, instanceKey: 'y' },
        { ...Note, instanceKey: 'z' },
        { ...Big, instanceKey: 'big' },
      ]);
      await live.register('/fan', [{ ...Note, instanceKey: 'x' }]);
      await live.register('/big', [{ ...Note, instanceKey: 'many' }]);
      const id = (page: string, key: string) => site.entryId(page, key);
      const [y, z, big] = await Promise.all([id('@site', 'y'), id('@site', 'z'), id('@site', 'big')]);
      const refs = (to: string, n: number) => Array.from({ length: n }, () => ({ ref: to }));
      // The count ends it: 600 copies of y, then 400 of the 1,200 copies of z inside them.
      await site.edit('@site', 'z', { text: 'z' });
      await site.edit('@site', 'y', { text: 'y', items: refs(z, 2) });
      await site.edit('/fan', 'x', { items: refs(y, 600) });
      // The bytes end it: 400 KB per copy in UTF-8 but 200,000 characters (a count of characters would fit 20).
      await site.edit('@site', 'big', {
        parts: Array.from({ length: 5 }, () => ({ t: 'é'.repeat(40_000) })),
      });
      await site.edit('/big', 'many', { items: [...refs(big, 20), { ref: z }] });

      const response = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': site.key } });
      const file = JSON.parse(await response.text()) as { data: Snapshot; error: null };
      const baked = createFolio({ url: folio.url, key: site.key, snapshot: file, components: [Note, Big] });
      const resolved = (value: unknown): number =>
        typeof value !== 'object' || value === null
          ? 0
          : Object.values(value).reduce<number>((n, v) => n + resolved(v), 'componentId' in value ? 1 : 0);
      for (const depth of [1, 2, 3]) {
        for (const pageId of ['/fan', '/big']) {
          const [bakedEntry] = await baked.page(pageId, { depth });
          const [liveEntry] = await live.page(pageId, { depth });
          assert.deepEqual(
            comparable([bakedEntry as PageEntry]),
            comparable([liveEntry as PageEntry]),
            `${pageId} at ${depth}`,
          );
          const count = resolved(bakedEntry?.fields);
          assert.equal(count, pageId === '/big' ? 13 : depth === 1 ? 600 : 1000, `${pageId} at ${depth}`);
        }
      }
    });

    it('without the declarations, baked reads give the stored ids', async () => {
      const site = await newSite(folio);
      const live = createFolio({ url: folio.url, key: site.key });
      await live.register('/', [{ ...Picks, instanceKey: 'picks' }]);
      await site.edit('/', 'picks', { heading: 'Plain' });
      const response = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': site.key } });
      const file = JSON.parse(await response.text()) as { data: Snapshot; error: null };
      const baked = createFolio({ url: folio.url, key: site.key, snapshot: file });
      assert.deepEqual(await baked.page('/'), file.data.content['/']);
    });
  });
}
