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
  declared: d,
});

describe('resolveReferences', () => {
  it('resolves at most 1,000 distinct entries per answer, in breadth-first order; the rest read { id }', async () => {
    const ids = Array.from({ length: MAX_RESOLVED + 5 }, (_, i) => id(i + 1));
    const { load, loads } = store(ids.map((_, i) => target(i + 1, { n: i + 1 })));
    const root = { id: id(0), fields: { refs: [...ids, ids[0]] }, declared: MANY };
    const { fields } = await resolveReferences([root], 1, load);
    const refs = fields[0]?.refs as { id: string; fields?: unknown }[];
    assert.equal(refs.filter((r) => r.fields !== undefined).length, MAX_RESOLVED + 1); // the repeat is the same entry
    assert.deepEqual(refs[MAX_RESOLVED], { id: ids[MAX_RESOLVED] });
    assert.equal(loads.length, 1); // one load per level, not per reference
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
