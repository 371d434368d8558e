import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSync, type StoredDefinition } from './sync-plan.js';

const hero: StoredDefinition = {
  instanceKey: 'hero',
  componentId: 'Hero',
  fields: [
    { key: 'title', type: 'text' },
    { key: 'count', type: 'number' },
  ],
};

describe('planSync', () => {
  it('an unchanged resend plans nothing, in either scope', () => {
    for (const scope of ['full', 'additive'] as const) {
      assert.deepEqual(planSync([hero], [hero], scope), {
        writes: [],
        created: [],
        changed: [],
        rejected: [],
      });
    }
  });

  it('new definitions are created in either scope', () => {
    const intro = { instanceKey: 'intro', componentId: 'Text', fields: [{ key: 'body', type: 'richtext' }] };
    const plan = planSync([hero], [hero, intro], 'additive');
    assert.deepEqual(plan.created, ['intro']);
    assert.deepEqual(plan.writes, [{ ...intro, isNew: true }]);
    assert.deepEqual(plan.rejected, []);
  });

  it('additive keeps the componentId, field types and fields left out, and says so', () => {
    const sent = {
      instanceKey: 'hero',
      componentId: 'BigHero',
      fields: [
        { key: 'title', type: 'number' },
        { key: 'image', type: 'image' },
      ],
    };
    const plan = planSync([hero], [sent], 'additive');
    const to = {
      componentId: 'Hero',
      fields: [
        { key: 'title', type: 'text' },
        { key: 'count', type: 'number' },
        { key: 'image', type: 'image' },
      ],
    };
    assert.deepEqual(plan.changed, [
      { instanceKey: 'hero', from: { componentId: 'Hero', fields: hero.fields }, to },
    ]);
    assert.deepEqual(plan.writes, [{ instanceKey: 'hero', ...to, isNew: false }]);
    assert.deepEqual(
      plan.rejected.map((r) => r.reason),
      [
        'componentId stays "Hero": the publishable key cannot change it to "BigHero".',
        'field "title" keeps type "text": the publishable key cannot change it to "number".',
        'field "count" is kept: the publishable key cannot remove fields.',
      ],
    );
  });

  it('additive with only refused parts writes nothing but reports them', () => {
    const plan = planSync([hero], [{ ...hero, componentId: 'Other' }], 'additive');
    assert.deepEqual(plan.writes, []);
    assert.deepEqual(plan.changed, []);
    assert.equal(plan.rejected.length, 1);
  });

  it('full replaces the definition as sent', () => {
    const sent = {
      instanceKey: 'hero',
      componentId: 'BigHero',
      fields: [{ key: 'title', type: 'richtext' }],
    };
    const plan = planSync([hero], [sent], 'full');
    assert.deepEqual(plan.changed, [
      {
        instanceKey: 'hero',
        from: { componentId: 'Hero', fields: hero.fields },
        to: { componentId: 'BigHero', fields: sent.fields },
      },
    ]);
    assert.deepEqual(plan.rejected, []);
  });

  it('a reorder of the same fields is no change under additive', () => {
    const reordered = { ...hero, fields: [...hero.fields].reverse() };
    assert.deepEqual(planSync([hero], [reordered], 'additive').writes, []);
    assert.equal(planSync([hero], [reordered], 'full').writes.length, 1);
  });

  it('a changed nested field is a change under full, and refused under additive', () => {
    const list = (required: boolean) => ({
      instanceKey: 'items',
      componentId: 'Items',
      fields: [{ key: 'items', type: 'list', fields: [{ key: 't', type: 'text', required }] }],
    });
    assert.equal(planSync([list(false)], [list(true)], 'full').changed.length, 1);
    const additive = planSync([list(false)], [list(true)], 'additive');
    assert.deepEqual(additive.writes, []);
    assert.match(additive.rejected[0]?.reason ?? '', /keeps its declaration/);
  });

  it('additive stores an added field without rules or default, and a new definition without defaults', () => {
    const sent = {
      ...hero,
      fields: [...hero.fields, { key: 'cta', type: 'text', required: true, default: 'Buy', label: 'CTA' }],
    };
    const plan = planSync([hero], [sent], 'additive');
    assert.deepEqual(plan.writes[0]?.fields.at(-1), { key: 'cta', type: 'text', label: 'CTA' });
    const fresh = planSync([], [{ ...sent, instanceKey: 'new' }], 'additive');
    assert.deepEqual(fresh.writes[0]?.fields.at(-1), {
      key: 'cta',
      type: 'text',
      required: true,
      label: 'CTA',
    });
    assert.equal(planSync([], [{ ...sent, instanceKey: 'new' }], 'full').rejected.length, 0);
  });
});
