import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldDeclaration } from '../definitions/index.js';
import { MAX_RESOLVED, type ReferenceTarget, resolveReferences } from './references.js';

/** The resolver alone (contract §13, §17), over entries held in memory: what the HTTP tests cannot reach cheaply. */

const id = (n: number) => `ent_${String(n).padStart(26, '0')}`;
const declared = (fields: FieldDeclaration[]) => new Map(fields.map((f) => [f.key, f]));
const MANY = declared([{ key: 'refs', type: 'reference', multiple: true }]);
const ONE = declared([{ key: 'next', type: 'reference' }]);

function store(targets: ReferenceTarget[]) {
  const byId = new Map(targets.map((t) => [t.id, t]));
  const loads: string[][] = [];
  return {
    loads,
    load: async (ids: string[]) => {
      loads.push(ids);
      return ids.flatMap((i) => (byId.has(i) ? [byId.get(i) as ReferenceTarget] : []));
    },
  };
}
const target = (n: number, fields: Record<string, unknown> | null, d = ONE): ReferenceTarget => ({
  id: id(n),
  pageId: '@site',
  instanceKey: `e${n}`,
  componentId: 'C',
  fields,
  bytes: fields === null ? 0 : Buffer.byteLength(JSON.stringify(fields)),
  declared: d,
});

/** The resolved occurrences in `value`, at any depth. */
const occurrences = (value: unknown): number =>
  typeof value !== 'object' || value === null
    ? 0
    : Object.values(value).reduce<number>((n, v) => n + occurrences(v), 'fields' in value ? 1 : 0);

describe('resolveReferences', () => {
  it('resolves at most 1,000 occurrences per answer, in breadth-first order; the rest read { id }', async () => {
    const ids = Array.from({ length: MAX_RESOLVED + 5 }, (_, i) => id(i + 1));
    const { load, loads } = store(ids.map((_, i) => target(i + 1, { n: i + 1 })));
    const root = { id: id(0), fields: { refs: [ids[0], ...ids] }, declared: MANY };
    const { fields } = await resolveReferences([root], 1, load);
    const refs = fields[0]?.refs as { id: string; fields?: unknown }[];
    // The repeat of the first entry is a second copy sent, so it counts (contract §23, not §17's distinct entries).
    assert.equal(occurrences(refs), MAX_RESOLVED);
    assert.deepEqual(refs[MAX_RESOLVED - 1], { ...refs[MAX_RESOLVED - 1], id: ids[MAX_RESOLVED - 2] });
    assert.deepEqual(refs[MAX_RESOLVED], { id: ids[MAX_RESOLVED - 1] });
    assert.deepEqual(refs.at(-1), { id: ids.at(-1) });
    // Loaded 50 at a time while the budget lasts: the 5 past it are never looked up.
    assert.deepEqual(
      loads.map((l) => l.length),
      Array.from({ length: 20 }, () => 50),
    );
  });

  it('a fan of 1,000 x 1,000 references resolves 1,000 occurrences, the first level whole', async () => {
    // Entries 1..3 each refer 1,000 times to the next: 10^9 copies at depth 3 under the old rule.
    const fan = (n: number) => ({ refs: Array.from({ length: MAX_RESOLVED }, () => id(n + 1)) });
    const { load, loads } = store([
      target(1, fan(1), MANY),
      target(2, fan(2), MANY),
      target(3, { n: 3 }, MANY),
    ]);
    const root = { id: id(0), fields: fan(0), declared: MANY };
    const { fields } = await resolveReferences([root], 3, load, 2 ** 30);
    assert.equal(occurrences(fields[0]), MAX_RESOLVED);
    const first = ((fields[0] as Record<string, unknown>).refs as { fields: { refs: unknown[] } }[])[0];
    assert.deepEqual(first?.fields.refs[0], { id: id(2) }); // the budget went to the first level
    assert.equal(loads.length, 1);
    // With the default bytes (5 MiB) each copy of entry 1 costs its 1,000 references as `{ id }`s:
    // the bytes end it first, and the answer holds them.
    const copy = JSON.stringify(((fields[0] as Record<string, unknown>).refs as unknown[])[0]).length;
    const bounded = await resolveReferences([root], 3, load);
    assert.equal(occurrences(bounded.fields[0]), Math.floor((5 * 1024 * 1024) / copy));
    assert.ok(JSON.stringify(bounded.fields).length - JSON.stringify(fan(0)).length < 5 * 1024 * 1024);
  });

  it('counts the bytes each occurrence sends; the first that does not fit ends resolution', async () => {
    const big = target(1, { text: 'x'.repeat(10_000) });
    const small = target(2, { text: 'y' });
    const { load } = store([big, small]);
    const root = { id: id(0), fields: { refs: [id(2), id(1), id(1), id(2), id(9)] }, declared: MANY };
    // Room for the small one and one copy of the big one (each costs its JSON as sent).
    const cost = (t: typeof big) =>
      JSON.stringify({
        id: t.id,
        pageId: t.pageId,
        instanceKey: t.instanceKey,
        componentId: t.componentId,
        fields: t.fields,
      }).length;
    const { fields } = await resolveReferences([root], 1, load, cost(big) + cost(small));
    const refs = fields[0]?.refs as { id: string; fields?: unknown }[];
    assert.deepEqual(
      refs.map((r) => (r.fields ? 'resolved' : r)),
      // The small one after the second copy would fit, but the order decides; the missing one past the end is { id } too.
      ['resolved', 'resolved', { id: id(1) }, { id: id(2) }, { id: id(9) }],
    );
    const exact = await resolveReferences([root], 1, load, cost(big) + cost(small) - 1);
    assert.equal(occurrences(exact.fields[0]), 1);
    assert.equal(occurrences((await resolveReferences([root], 1, load, 0)).fields[0]), 0);
  });

  it('ends on cycles (the root included) and marks the depth with { id }', async () => {
    const { load } = store([target(1, { next: id(2) }), target(2, { next: id(1) })]);
    const root = { id: id(1), fields: { next: id(2) }, declared: ONE };
    const deep = await resolveReferences([root], 3, load);
    assert.deepEqual(deep.fields[0], {
      next: {
        id: id(2),
        pageId: '@site',
        instanceKey: 'e2',
        componentId: 'C',
        fields: { next: { id: id(1) } },
      },
    });
    const zero = await resolveReferences([root], 0, load);
    assert.deepEqual(zero.fields[0], { next: { id: id(2) } });
    assert.deepEqual([...deep.pages], ['@site']);
  });

  it('an invisible target is null (single) or left out (multiple); a missing one too', async () => {
    const { load } = store([target(1, null), target(2, { next: null })]);
    const single = await resolveReferences([{ id: id(0), fields: { next: id(1) }, declared: ONE }], 1, load);
    assert.deepEqual(single.fields[0], { next: null });
    const many = await resolveReferences(
      [{ id: id(0), fields: { refs: [id(1), id(2), id(9)] }, declared: MANY }],
      1,
      load,
    );
    assert.deepEqual(
      (many.fields[0] as { refs: { id: string }[] }).refs.map((r) => r.id),
      [id(2)],
    );
    // The page of an invisible target is still depended on: publishing it changes the answer.
    assert.deepEqual([...single.pages], ['@site']);
  });

  it('leaves entries without declared references as they are (the same object)', async () => {
    const fields = { title: id(1) };
    const { load, loads } = store([]);
    const out = await resolveReferences(
      [{ id: id(0), fields, declared: declared([{ key: 'title', type: 'text' }]) }],
      1,
      load,
    );
    assert.equal(out.fields[0], fields);
    assert.equal(loads.length, 0);
  });
});
