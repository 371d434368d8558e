import assert from 'node:assert/strict';
import { it } from 'node:test';
import { patternCalls } from '../../src/modules/definitions/pattern-engine.js';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, pageUrl, patchEntry, type Site } from '../helpers/content.js';
import { call } from '../helpers/factories.js';
import { syncAs } from '../helpers/fields.js';

/**
 * Patterns cost what they check (contract §23, issue 42 items 2 and 3): the probe's pattern defeats
 * RE2's DFA, so each character costs ~1,000 NFA steps. Before: a sync of 40 such defaults held the
 * event loop 208 s; a 60K text took 3.4 s per PATCH and per editor read, a list of 1,000-character
 * items ~35 ms per item on every PATCH, read and publish. Each request here must finish within the
 * rules budget (200 ms) plus overhead: 2 s is far from both.
 */
const COSTLY = '(?:\\p{L}|\\p{N}|\\p{P}).*a(?:\\p{L}|\\p{N}){999}!';
const QUICK_MS = 2_000;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

describeEachDb('rule cost', (ctx) => {
  /** A member's sync of one component (rules and all, as a session may), answering its entry id. */
  const entryOf = async (site: Site, pageId: string, fields: unknown[]) => {
    const res = await syncAs(ctx.app, site.editing, {
      pageId,
      components: [{ componentId: 'Costly', instanceKey: 'c', fields }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (await editorEntries(ctx.app, site, pageId))[0]?.id as string;
  };

  it('a sync of 40 costly patterns with 60K defaults answers at once: too long a value never matches (400)', async () => {
    const site = await newSite(ctx.app);
    const components = Array.from({ length: 40 }, (_, i) => ({
      componentId: 'Costly',
      instanceKey: `c${i}`,
      fields: [{ key: 't', type: 'text', pattern: { source: COSTLY }, default: 'a'.repeat(60_000) }],
    }));
    const [res, ms] = await timed(() => syncAs(ctx.app, site.editing, { pageId: '/', components }));
    assert.ok(ms < QUICK_MS, `took ${ms} ms`);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 500));
    assert.equal(res.body.error.details.length, 40);
    assert.equal(res.body.error.details[0].path, 'body.components[0].fields[0].default');
    assert.match(res.body.error.details[0].message, /must match the pattern/);
  });

  it('a sync whose defaults cannot be checked within the budget is 422, nothing written', async () => {
    const site = await newSite(ctx.app);
    const components = Array.from({ length: 40 }, (_, i) => ({
      componentId: 'Costly',
      instanceKey: `c${i}`,
      fields: [{ key: 't', type: 'text', pattern: { source: COSTLY }, default: 'a'.repeat(10_000) }],
    }));
    const [res, ms] = await timed(() => syncAs(ctx.app, site.editing, { pageId: '/', components }));
    assert.ok(ms < QUICK_MS, `took ${ms} ms`);
    assert.equal(res.status, 422, JSON.stringify(res.body).slice(0, 500));
    assert.equal(res.body.error.code, 'unpublishable');
    assert.match(res.body.error.message, /rules budget/);
    assert.match(res.body.error.details[0].message, /too costly/);
    const read = await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.editing });
    assert.deepEqual(read.body.data, [], 'nothing written');
  });

  it('a pattern whose program is over 10,000 instructions is 400 at sync, with its path', async () => {
    const site = await newSite(ctx.app);
    for (const source of ['(?:a?a?a?a?a?a?){1000}', `(?:${'a?'.repeat(95)}){1000}`]) {
      const [res, ms] = await timed(() =>
        syncAs(ctx.app, site.editing, {
          pageId: '/',
          components: [
            { componentId: 'C', instanceKey: 'c', fields: [{ key: 't', type: 'text', pattern: { source } }] },
          ],
        }),
      );
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.details[0].path, 'body.components[0].fields[0].pattern');
      assert.match(res.body.error.details[0].message, /instructions; at most 10000/);
      assert.ok(ms < QUICK_MS, `took ${ms} ms`);
    }
  });

  it('a value of 10,001 code points never matches a pattern; 10,000 still does', async () => {
    const site = await newSite(ctx.app);
    const id = await entryOf(site, '/long', [{ key: 't', type: 'text', pattern: { source: '[a😀]*' } }]);
    const fits = `${'a'.repeat(9_999)}😀`;
    let res = await patchEntry(ctx.app, site, id, { fields: { t: fits } });
    assert.deepEqual(res.body.data.problems, []);
    res = await patchEntry(ctx.app, site, id, { fields: { t: `${fits}a` }, status: 'published' });
    assert.equal(res.status, 422, JSON.stringify(res.body).slice(0, 300));
    assert.deepEqual(
      res.body.error.details.map((p: { path: string }) => p.path),
      ['fields.t'],
    );
    assert.match(res.body.error.details[0].message, /must match the pattern/);
  });

  it('a 60K text under a costly pattern: PATCH, reads and publish each answer at once', async () => {
    const site = await newSite(ctx.app);
    const id = await entryOf(site, '/text', [{ key: 't', type: 'text', pattern: { source: COSTLY } }]);
    const [res, patchMs] = await timed(() =>
      patchEntry(ctx.app, site, id, { fields: { t: 'a'.repeat(60_000) } }),
    );
    assert.equal(res.status, 200);
    assert.ok(patchMs < QUICK_MS, `PATCH took ${patchMs} ms`);
    assert.match(res.body.data.problems[0].message, /must match the pattern/);
    const matches = patternCalls.matches;
    for (let i = 0; i < 2; i++) {
      const [entries, readMs] = await timed(() => editorEntries(ctx.app, site, '/text'));
      assert.ok(readMs < QUICK_MS, `read took ${readMs} ms`);
      assert.equal((entries[0] as unknown as { problems: unknown[] }).problems.length, 1);
    }
    assert.equal(patternCalls.matches, matches, 'too long a value never reaches the engine');
    const [publish, publishMs] = await timed(() => patchEntry(ctx.app, site, id, { status: 'published' }));
    assert.equal(publish.status, 422);
    assert.ok(publishMs < QUICK_MS, `publish took ${publishMs} ms`);
  });

  it('a list of 1,000-character items under a costly pattern: within the budget, and a read runs no pattern again', async () => {
    const site = await newSite(ctx.app);
    const id = await entryOf(site, '/list', [
      { key: 'items', type: 'list', fields: [{ key: 't', type: 'text', pattern: { source: COSTLY } }] },
    ]);
    // 100 items: ~3.5 s on every PATCH, read and publish before (900 took 56-77 s).
    const items = Array.from({ length: 100 }, () => ({ t: 'a'.repeat(1_000) }));
    const [res, patchMs] = await timed(() => patchEntry(ctx.app, site, id, { fields: { items } }));
    assert.equal(res.status, 200);
    assert.ok(patchMs < QUICK_MS, `PATCH took ${patchMs} ms`);
    const problems = res.body.data.problems as { path: string; message: string }[];
    assert.equal(problems.length, 100, 'every item is a problem: not matching, or not checked');
    assert.ok(problems.some((p) => /too costly/.test(p.message)));
    const matches = patternCalls.matches;
    for (let i = 0; i < 2; i++) {
      const [entries, readMs] = await timed(() => editorEntries(ctx.app, site, '/list'));
      assert.ok(readMs < QUICK_MS, `read took ${readMs} ms`);
      assert.deepEqual((entries[0] as unknown as { problems: unknown[] }).problems, problems);
    }
    assert.equal(patternCalls.matches, matches, 'a read of unchanged content runs no pattern');
    const [publish, publishMs] = await timed(() => patchEntry(ctx.app, site, id, { status: 'published' }));
    assert.equal(publish.status, 422);
    assert.ok(publishMs < QUICK_MS, `publish took ${publishMs} ms`);
  });
});
