import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { DEFAULT_RESOLVE_MAX_BYTES } from '../../src/modules/content/references.js';
import { LIMITS } from '../../src/modules/definitions/index.js';
import { describeEachDb, type TestContext } from '../helpers/app.js';
import { newSite, pageUrl, type Site } from '../helpers/content.js';
import { call } from '../helpers/factories.js';
import { setLocales } from '../helpers/locales.js';
import { entriesOn, put } from '../helpers/references.js';
import { openLive } from '../helpers/sse.js';

/**
 * References cost what they send (contract §23, issue 42 item 1): one answer resolves at most 1,000
 * occurrences holding at most CMS_RESOLVE_MAX_BYTES of JSON, whatever the shape of the references.
 * Before, the budget counted distinct entries and every occurrence was copied: a fan of 1,000 x 1,000
 * took the server down (heap out of memory), 1,000 copies of one 1 MB entry were a 500 on every read.
 */

/** An entry that refers to others through list items (a `multiple` reference holds at most 100). */
const FAN = {
  componentId: 'Fan',
  fields: [
    { key: 'text', type: 'text' },
    { key: 'items', type: 'list', fields: [{ key: 'ref', type: 'reference' }] },
  ],
};
const BIG = {
  componentId: 'Big',
  fields: [{ key: 'parts', type: 'list', fields: [{ key: 't', type: 'text' }] }],
};

const refs = (id: string, n: number) => Array.from({ length: n }, () => ({ ref: id }));

interface Resolved {
  id: string;
  fields: Record<string, unknown>;
}
/** The resolved occurrences inside an entry's fields (objects carrying `fields`), at any depth. */
const occurrences = (value: unknown): number =>
  typeof value !== 'object' || value === null
    ? 0
    : Object.values(value).reduce<number>((n, v) => n + occurrences(v), 'fields' in value ? 1 : 0);
/** What one resolved occurrence sends, in UTF-8 bytes: its cost in the budget. */
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const itemsOf = (entry: { fields: Record<string, unknown> }) =>
  entry.fields.items as { ref: Resolved | { id: string } }[];

/** A raw read: the status, the body's length in bytes and the parsed first entry. */
async function readRaw(ctx: TestContext, headers: Record<string, string>, pageId: string, query = '') {
  const started = performance.now();
  const res = await ctx.app.inject({ method: 'GET', url: `${pageUrl(pageId)}${query}`, headers });
  const ms = performance.now() - started;
  const body = res.statusCode === 200 ? JSON.parse(res.body) : null;
  return { status: res.statusCode, bytes: res.rawPayload.length, ms, entry: body?.data?.[0], raw: res.body };
}

describeEachDb('references: the budget of one answer', (ctx) => {
  let site: Site;
  before(async () => {
    site = await newSite(ctx.app);
  });

  it('a fan X -> Y -> Z -> W of 1,000 references per level: one bounded answer, the budget spent level by level', async () => {
    const shared = await entriesOn(ctx.app, site, '@site', [
      { ...FAN, instanceKey: 'y' },
      { ...FAN, instanceKey: 'z' },
      { ...FAN, instanceKey: 'w' },
    ]);
    const x = (await entriesOn(ctx.app, site, '/x', [{ ...FAN, instanceKey: 'x' }])).x as string;
    const [y, z, w] = [shared.y as string, shared.z as string, shared.w as string];
    await put(ctx.app, site, w, { text: 'the end' });
    await put(ctx.app, site, z, { items: refs(w, 1000) });
    await put(ctx.app, site, y, { items: refs(z, 1000) });
    await put(ctx.app, site, x, { items: refs(y, 1000) });

    // Each copy of Y sends its 1,000 references to Z as { id }: the bytes end the budget within the first level.
    for (const depth of [1, 2, 3]) {
      const read = await readRaw(ctx, site.key, '/x', `?depth=${depth}`);
      assert.equal(read.status, 200, read.raw.slice(0, 300));
      const items = itemsOf(read.entry);
      const copy = items[0]?.ref as Resolved;
      assert.equal(copy.id, y);
      assert.deepEqual(itemsOf(copy)[0]?.ref, { id: z });
      const fit = Math.floor(DEFAULT_RESOLVE_MAX_BYTES / bytesOf(copy));
      assert.equal(occurrences(read.entry.fields), fit, `depth ${depth}`);
      assert.ok(fit > 0 && fit < 1000);
      assert.deepEqual(items[fit]?.ref, { id: y }); // the first that does not fit, and every one after it
      assert.deepEqual(items[999]?.ref, { id: y });
      const resolvedBytes = items.slice(0, fit).reduce((n, i) => n + bytesOf(i.ref), 0);
      assert.ok(resolvedBytes <= DEFAULT_RESOLVE_MAX_BYTES, `${resolvedBytes}`);
      // The page's own entry (1,000 ids) and its envelope beside the budget.
      assert.ok(read.bytes < DEFAULT_RESOLVE_MAX_BYTES + 100_000, `${read.bytes} bytes`);
      assert.ok(read.ms < 10_000, `${read.ms} ms`);
    }
  });

  it('1,000 items referring to one entry as big as an entry may be: 200, a few copies, under the budget', async () => {
    const ids = await entriesOn(ctx.app, site, '/big', [{ ...BIG, instanceKey: 'big' }]);
    const big = ids.big as string;
    // Ten parts filling the entry's bound (LIMITS.entryFieldsBytes) as JSON, `_key`s included.
    const room =
      LIMITS.entryFieldsBytes - '{"parts":[]}'.length - 10 * '{"_key":"abcdefghijkl","t":""},'.length;
    const parts = Array.from({ length: 10 }, () => ({ t: 'x'.repeat(Math.floor(room / 10)) }));
    const written = await put(ctx.app, site, big, { parts });
    assert.ok(bytesOf(written.fields) > LIMITS.entryFieldsBytes - 20, `${bytesOf(written.fields)}`);
    const many = (await entriesOn(ctx.app, site, '/many', [{ ...FAN, instanceKey: 'many' }])).many as string;
    await put(ctx.app, site, many, { items: refs(big, 1000) });

    const read = await readRaw(ctx, site.key, '/many');
    assert.equal(read.status, 200, read.raw.slice(0, 300));
    const items = itemsOf(read.entry);
    const fit = Math.floor(DEFAULT_RESOLVE_MAX_BYTES / bytesOf(items[0]?.ref));
    assert.equal(fit, 4);
    assert.equal(occurrences(read.entry.fields), fit);
    assert.deepEqual(items[fit]?.ref, { id: big });
    assert.ok(read.bytes < DEFAULT_RESOLVE_MAX_BYTES + 100_000, `${read.bytes} bytes`);
  });
});

/** A small budget, so that every reader that resolves can be shown cheaply to spend it the same way. */
const BUDGET = 250_000;

describeEachDb(
  'references: every reader spends CMS_RESOLVE_MAX_BYTES alike',
  (ctx) => {
    it('visitors, preview tokens, ?resolve=true sessions, live streams and a read in a locale', async () => {
      const site = await newSite(ctx.app);
      const shared = await entriesOn(ctx.app, site, '@site', [
        { ...FAN, instanceKey: 'leaf' },
        { ...FAN, instanceKey: 'mid' },
      ]);
      const [leaf, mid] = [shared.leaf as string, shared.mid as string];
      await put(ctx.app, site, leaf, { text: 'leaf' });
      // Two bytes per character in UTF-8: a budget counted in characters would fit twice as many.
      await put(ctx.app, site, mid, { text: 'é'.repeat(20_000), items: refs(leaf, 3) });
      const many = (await entriesOn(ctx.app, site, '/many', [{ ...FAN, instanceKey: 'many' }]))
        .many as string;
      await put(ctx.app, site, many, { items: refs(mid, 1000) });

      const token = await call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers: site.editing });
      assert.equal(token.status, 201);
      const preview = { ...site.key, 'x-cms-preview': token.body.data.token as string };
      const check = (label: string, entry: { fields: Record<string, unknown> }) => {
        const items = itemsOf(entry);
        const copy = items[0]?.ref as Resolved;
        assert.deepEqual(itemsOf(copy)[0]?.ref, { id: leaf }, label); // depth 1: its own references as { id }
        const fit = Math.floor(BUDGET / bytesOf(copy));
        assert.equal(fit, 6, label);
        assert.equal(occurrences(entry.fields), fit, label);
        assert.deepEqual(items[fit]?.ref, { id: mid }, label);
      };
      for (const [label, headers, query] of [
        ['visitor', site.key, ''],
        ['preview token', preview, ''],
        ['session ?resolve=true', site.editing, '?resolve=true'],
      ] as const) {
        const read = await readRaw(ctx, headers, '/many', query);
        assert.equal(read.status, 200, `${label}: ${read.raw.slice(0, 300)}`);
        check(label, read.entry);
        assert.ok(read.bytes < BUDGET + 100_000, `${label}: ${read.bytes}`);
      }

      const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      for (const [label, headers] of [
        ['visitor stream', site.key],
        ['preview stream', preview],
      ] as const) {
        const stream = await openLive(base, '/many', headers);
        try {
          assert.equal(stream.status, 200, label);
          check(label, JSON.parse((await stream.nextChange()).data));
        } finally {
          stream.close();
        }
      }

      // A project with locales reads through its fallback chain (locale-reads.ts), measured alike.
      await setLocales(ctx.app, site, {
        default: 'en',
        available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }],
      });
      const fr = await readRaw(ctx, site.key, '/many', '?locale=fr');
      assert.equal(fr.status, 200, fr.raw.slice(0, 300));
      check('visitor in fr', fr.entry);
      const frPreview = await readRaw(ctx, site.editing, '/many', '?resolve=true&locale=fr');
      assert.equal(frPreview.status, 200, frPreview.raw.slice(0, 300));
      check('session ?resolve=true in fr', frPreview.entry);
    });
  },
  { env: { CMS_RESOLVE_MAX_BYTES: String(BUDGET) } },
);
