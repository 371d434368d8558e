import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { beforeEach, it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, type Site } from '../helpers/content.js';
import { call } from '../helpers/factories.js';

/**
 * Ids of the form the server makes (`ent_` and 26 base-32 characters), chosen by the test: new ones
 * for each test, since the file's tests share one database and an id is held once in all of it.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const anId = () => `ent_01${Array.from(randomBytes(24), (b) => ALPHABET[b % 32]).join('')}`;
let ID_A = '';
let ID_B = '';
let ID_C = '';
beforeEach(() => {
  [ID_A, ID_B, ID_C] = [anId(), anId(), anId()];
});

const text = (instanceKey: string, entryId?: string) => ({
  componentId: 'Text',
  instanceKey,
  fields: [{ key: 'title', type: 'text' }],
  ...(entryId && { entryId }),
});

/** A sync as a member (the editor's session beside the key), or with the key alone. */
const syncAs = (app: Parameters<typeof call>[0], site: Site, who: 'member' | 'site', body: object) =>
  call(app, {
    method: 'POST',
    url: '/v1/definitions/sync',
    headers: who === 'member' ? site.editing : site.key,
    payload: body,
  });

/** Sync with entryId: an import keeps its entries' ids where no entry holds them (issue 44 item 5). */
describeEachDb('definitions sync with requested entry ids', (ctx) => {
  it("a member's sync creates each entry with the id it asks for; changedIds is empty", async () => {
    const site = await newSite(ctx.app);
    const res = await syncAs(ctx.app, site, 'member', {
      pageId: '/',
      components: [text('a', ID_A), text('b', ID_B), text('plain')],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, {
      pageId: '/',
      components: 3,
      created: ['a', 'b', 'plain'],
      rejected: [],
      changedIds: [],
    });
    const entries = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(
      entries.slice(0, 2).map((e) => [e.instanceKey, e.id]),
      [
        ['a', ID_A],
        ['b', ID_B],
      ],
    );
    assert.match(entries[2]!.id, /^ent_[0-9A-Z]{26}$/);
    // The entry reads by its id as any other.
    const one = await call(ctx.app, { method: 'GET', url: `/v1/entries/${ID_A}`, headers: site.editing });
    assert.equal(one.status, 200);
    assert.equal(one.body.data.instanceKey, 'a');
  });

  it('an id held by another project gets a new one, answered as for its own project (nothing disclosed)', async () => {
    const other = await newSite(ctx.app, 'Other');
    await syncAs(ctx.app, other, 'member', { pageId: '/', components: [text('theirs', ID_C)] });
    const site = await newSite(ctx.app);
    await syncAs(ctx.app, site, 'member', { pageId: '/', components: [text('mine', ID_A)] });

    // ID_C is another project's, ID_A this project's own: the same kind of answer for both.
    const res = await syncAs(ctx.app, site, 'member', {
      pageId: '/about',
      components: [text('x', ID_C), text('y', ID_A), text('z', ID_B)],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const entries = await editorEntries(ctx.app, site, '/about');
    const id = (key: string) => entries.find((e) => e.instanceKey === key)!.id;
    assert.notEqual(id('x'), ID_C);
    assert.notEqual(id('y'), ID_A);
    assert.equal(id('z'), ID_B);
    assert.deepEqual(res.body.data.changedIds, [
      { instanceKey: 'x', requested: ID_C, id: id('x') },
      { instanceKey: 'y', requested: ID_A, id: id('y') },
    ]);
    assert.deepEqual(Object.keys(res.body.data.changedIds[0]).sort(), ['id', 'instanceKey', 'requested']);
    // The other project's entry is untouched and still its own.
    const theirs = await editorEntries(ctx.app, other, '/');
    assert.deepEqual(
      theirs.map((e) => [e.instanceKey, e.id]),
      [['theirs', ID_C]],
    );
    const read = await call(ctx.app, { method: 'GET', url: `/v1/entries/${ID_C}`, headers: site.editing });
    assert.equal(read.status, 404);
  });

  it('an existing entry keeps its id; a resync that sends another is listed, unchanged or not', async () => {
    const site = await newSite(ctx.app);
    await syncAs(ctx.app, site, 'member', { pageId: '/', components: [text('a', ID_A)] });
    const same = await syncAs(ctx.app, site, 'member', { pageId: '/', components: [text('a', ID_A)] });
    assert.deepEqual(same.body.data.changedIds, []);
    const other = await syncAs(ctx.app, site, 'member', { pageId: '/', components: [text('a', ID_B)] });
    assert.deepEqual(other.body.data.changedIds, [{ instanceKey: 'a', requested: ID_B, id: ID_A }]);
    const entries = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(
      entries.map((e) => e.id),
      [ID_A],
    );
  });

  it('the publishable key may not choose ids; a malformed or repeated id is 400; a dry run writes nothing', async () => {
    const site = await newSite(ctx.app);
    const bySite = await syncAs(ctx.app, site, 'site', { pageId: '/', components: [text('a', ID_A)] });
    assert.equal(bySite.status, 403);
    assert.equal(bySite.body.error.code, 'forbidden');
    assert.match(bySite.body.error.message, /entry ids \(entryId\)/);

    const lower = await syncAs(ctx.app, site, 'member', {
      pageId: '/',
      components: [text('a', ID_A.toLowerCase())],
    });
    assert.equal(lower.status, 400);
    assert.deepEqual(
      lower.body.error.details.map((d: { path: string }) => d.path),
      ['body.components[0].entryId'],
    );
    const twice = await syncAs(ctx.app, site, 'member', {
      pageId: '/',
      components: [text('a', ID_A), text('b', ID_A)],
    });
    assert.equal(twice.status, 400);
    assert.deepEqual(twice.body.error.details, [
      { path: 'body.components[1].entryId', message: 'is sent twice' },
    ]);

    const dry = await call(ctx.app, {
      method: 'POST',
      url: '/v1/definitions/sync?dryRun=true',
      headers: site.editing,
      payload: { pageId: '/', components: [text('a', ID_A)] },
    });
    assert.equal(dry.status, 200);
    assert.deepEqual(dry.body.data.created, ['a']);
    assert.deepEqual(await editorEntries(ctx.app, site, '/'), []);
  });

  it('a sync without entryId answers as before (no changedIds)', async () => {
    const site = await newSite(ctx.app);
    const res = await syncAs(ctx.app, site, 'member', { pageId: '/', components: [text('a')] });
    assert.deepEqual(res.body.data, { pageId: '/', components: 1, created: ['a'], rejected: [] });
  });
});
