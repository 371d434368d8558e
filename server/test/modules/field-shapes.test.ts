import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, pageUrl, patchEntry, type Site } from '../helpers/content.js';
import { call } from '../helpers/factories.js';
import { syncAs } from '../helpers/fields.js';
import { entriesOn, PERSON, put, read } from '../helpers/references.js';

/**
 * Shapes are total (contract §23, issue 42 item 8): every item of a `multiple` select or reference is
 * checked on write, and a stored value the declaration no longer accepts (a `json` field that became
 * a multiple reference) is a problem for editors and never reaches a visitor looking resolved.
 */

const SHELF = (refs: object) => ({
  componentId: 'Shelf',
  instanceKey: 'shelf',
  fields: [
    { key: 'title', type: 'text' },
    refs,
    { key: 'tags', type: 'select', multiple: true, options: [{ value: 'new' }, { value: 'sale' }] },
  ],
});
const REFS = { key: 'refs', type: 'reference', multiple: true };
const ONE = { key: 'one', type: 'reference' };

/** A forged "resolved" reference: another project's entry id, with fields it never had. */
const forged = (id: string) => ({ id, pageId: '@site', componentId: 'Person', fields: { name: 'FAKE' } });

/** A shelf on `/` and a published person on `@site` to refer to; returns their ids. */
async function shelfSite(app: Parameters<typeof newSite>[0], site: Site, refs: object = REFS) {
  const people = await entriesOn(app, site, '@site', [{ ...PERSON, instanceKey: 'ada' }]);
  const ada = people.ada as string;
  await put(app, site, ada, { name: 'Ada' });
  const shelf = (await entriesOn(app, site, '/', [SHELF(refs)])).shelf as string;
  return { ada, shelf };
}

describeEachDb('field shapes', (ctx) => {
  it('a non-string item of a multiple reference or select is a 400 at its path, published or not, and nothing is written', async () => {
    const site = await newSite(ctx.app);
    const other = await newSite(ctx.app, 'Other');
    const theirs = (await entriesOn(ctx.app, other, '@site', [{ ...PERSON, instanceKey: 'x' }])).x as string;
    const { ada, shelf } = await shelfSite(ctx.app, site);
    await put(ctx.app, site, shelf, { title: 'Before', refs: [ada], tags: ['new'] });

    const cases: [object, string[]][] = [
      [{ refs: [123, forged(theirs)] }, ['body.fields.refs[0]', 'body.fields.refs[1]']],
      [{ refs: [ada, forged(ada)] }, ['body.fields.refs[1]']],
      [{ refs: [null] }, ['body.fields.refs[0]']],
      [{ tags: ['new', 7, { value: 'sale' }] }, ['body.fields.tags[1]', 'body.fields.tags[2]']],
      [{ tags: [['new']] }, ['body.fields.tags[0]']],
    ];
    for (const [fields, paths] of cases) {
      for (const status of ['published', undefined]) {
        const res = await patchEntry(ctx.app, site, shelf, { fields: { title: 'After', ...fields }, status });
        assert.equal(res.status, 400, `${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'validation_failed');
        const at = (res.body.error.details as { path: string; message: string }[]).filter((d) =>
          paths.includes(d.path),
        );
        assert.deepEqual(
          at.map((d) => d.path),
          paths,
          JSON.stringify(res.body.error.details),
        );
        for (const d of at)
          assert.match(d.message, /must be a string, not (a number|an object|null|an array)/);
      }
    }
    // Nothing was written: the working and the published copy are as before, for editors and visitors.
    const [entry] = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(entry?.fields, { title: 'Before', refs: [ada], tags: ['new'] });
    const visitor = await read(ctx.app, site.key, '/');
    assert.equal(visitor.body.data[0].fields.title, 'Before');
    assert.equal(visitor.body.data[0].fields.refs[0].fields.name, 'Ada');
    const snapshot = await call(ctx.app, { method: 'GET', url: '/v1/snapshot', headers: site.key });
    assert.equal(snapshot.status, 200);
    assert.doesNotMatch(JSON.stringify(snapshot.body), /FAKE/);
  });

  it('objects kept when a json field becomes a multiple reference are problems for editors, left out for visitors', async () => {
    const site = await newSite(ctx.app);
    const other = await newSite(ctx.app, 'Other');
    const theirs = (await entriesOn(ctx.app, other, '@site', [{ ...PERSON, instanceKey: 'x' }])).x as string;
    const { ada, shelf } = await shelfSite(ctx.app, site, { key: 'refs', type: 'json' });
    // What a json field may hold: an object dressed as a resolved reference, a number, a real id.
    await put(ctx.app, site, shelf, { title: 'Shelf', refs: [forged(theirs), 123, ada] });
    // A member's sync makes it a multiple reference; stored values stay as they are (§17).
    const resync = await syncAs(ctx.app, site.editing, { pageId: '/', components: [SHELF(REFS)] });
    assert.equal(resync.status, 200, JSON.stringify(resync.body));

    // The editor reads the stored value with a problem at each item that does not fit.
    const editor = await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.editing });
    assert.equal(editor.status, 200);
    const [entry] = editor.body.data;
    assert.deepEqual(entry.fields.refs, [forged(theirs), 123, ada]);
    assert.deepEqual(entry.problems, [
      { locale: null, path: 'fields.refs[0]', message: 'must be a string, not an object' },
      { locale: null, path: 'fields.refs[1]', message: 'must be a string, not a number' },
    ]);

    // Visitors (every depth), a preview and a member's ?resolve=true never get the object: left out.
    for (const query of ['', '?depth=0', '?depth=2']) {
      const visitor = await read(ctx.app, site.key, '/', query);
      assert.equal(visitor.status, 200, JSON.stringify(visitor.body));
      const refs = visitor.body.data[0].fields.refs as { id: string; fields?: { name: string } }[];
      assert.deepEqual(
        refs.map((r) => r.id),
        [ada],
        `${query}: ${JSON.stringify(refs)}`,
      );
      if (query !== '?depth=0') assert.equal(refs[0]?.fields?.name, 'Ada');
      assert.doesNotMatch(JSON.stringify(visitor.body), /FAKE/);
    }
    const resolved = await read(ctx.app, site.editing, '/', '?resolve=true');
    assert.equal(resolved.status, 200);
    assert.deepEqual(
      resolved.body.data[0].fields.refs.map((r: { id: string }) => r.id),
      [ada],
    );
    // Publishing it as stored is refused (the same problems); the editor clears it, then it publishes.
    const refused = await patchEntry(ctx.app, site, shelf, {
      fields: { title: 'Again' },
      status: 'published',
    });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(
      refused.body.error.details.map((d: { path: string }) => d.path),
      ['fields.refs[0]', 'fields.refs[1]'],
    );
    const cleared = await patchEntry(ctx.app, site, shelf, { fields: { refs: [ada] }, status: 'published' });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.deepEqual(cleared.body.data.problems, []);
  });

  it('an object kept when a json field becomes a single reference reads as null for visitors', async () => {
    const site = await newSite(ctx.app);
    const { ada, shelf } = await shelfSite(ctx.app, site, { key: 'one', type: 'json' });
    await put(ctx.app, site, shelf, { title: 'Shelf', one: forged(ada) });
    const resync = await syncAs(ctx.app, site.editing, { pageId: '/', components: [SHELF(ONE)] });
    assert.equal(resync.status, 200, JSON.stringify(resync.body));

    const [entry] = (await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.editing })).body
      .data;
    assert.deepEqual(entry.problems, [
      {
        locale: null,
        path: 'fields.one',
        message: 'must be an entry id ("ent_…") (field type "reference")',
      },
    ]);
    for (const query of ['', '?depth=0']) {
      const visitor = await read(ctx.app, site.key, '/', query);
      assert.equal(visitor.status, 200);
      assert.equal(visitor.body.data[0].fields.one, null, query);
    }
  });
});
