import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../shared/errors.js';
import { LIMITS } from './objects.limits.js';
import { planSave, type SaveInput } from './objects.plan.js';

/** The 400's field problems, or a failure when planSave accepted the input. */
function problemsOf(input: unknown): { path: string; message: string }[] {
  try {
    planSave(input as SaveInput);
  } catch (err) {
    assert.ok(err instanceof AppError);
    assert.equal(err.statusCode, 400);
    return err.details as { path: string; message: string }[];
  }
  assert.fail('planSave accepted the input');
}

describe('planSave', () => {
  it('flattens nested fields into dotted paths with JSON values', () => {
    const plan = planSave({
      objects: [
        { type: 'product', id: 'p1', fields: { title: 'Hat', seo: { title: 'Hat!', noindex: false }, n: 2 } },
      ],
    } as SaveInput);
    assert.deepEqual(plan.objects[0]!.fields, [
      { path: 'title', value: '"Hat"' },
      { path: 'seo.title', value: '"Hat!"' },
      { path: 'seo.noindex', value: 'false' },
      { path: 'n', value: '2' },
    ]);
  });

  it('sorts objects by type then id in code-unit order, so saves lock in one order', () => {
    const plan = planSave({
      objects: [
        { type: 'b', id: 'x' },
        { type: 'a', id: 'b' },
        { type: 'a', id: 'B' },
        { type: 'a', id: 'a' },
      ],
    } as SaveInput);
    assert.deepEqual(
      plan.objects.map((o) => `${o.type}/${o.id}`),
      ['a/B', 'a/a', 'a/b', 'b/x'],
    );
  });

  it('takes each object status, else the request status, else draft; mixed when they differ', () => {
    assert.equal(planSave({ objects: [{ type: 't', id: '1' }] } as SaveInput).status, 'draft');
    const published = planSave({ status: 'published', objects: [{ type: 't', id: '1' }] } as SaveInput);
    assert.equal(published.status, 'published');
    assert.equal(published.objects[0]!.published, true);
    const mixed = planSave({
      status: 'published',
      objects: [
        { type: 't', id: '1' },
        { type: 't', id: '2', status: 'draft' },
      ],
    } as SaveInput);
    assert.equal(mixed.status, 'mixed');
    assert.deepEqual(
      mixed.objects.map((o) => o.published),
      [true, false],
    );
  });

  it('keeps collection items in order, values as JSON', () => {
    const plan = planSave({
      objects: [
        {
          type: 't',
          id: '1',
          collections: {
            images: [
              { itemId: 'y', value: { url: 'u' } },
              { itemId: 'x', value: 1 },
            ],
          },
        },
      ],
    } as SaveInput);
    assert.deepEqual(plan.objects[0]!.collections, [
      {
        name: 'images',
        items: [
          { itemId: 'y', value: '{"url":"u"}' },
          { itemId: 'x', value: '1' },
        ],
      },
    ]);
  });

  it('refuses, with every problem named by path: duplicates, arrays, non-finite numbers, bad names', () => {
    const problems = problemsOf({
      objects: [
        { type: 't', id: '1', fields: { list: [1, 2], n: Number.NaN, '': 'x', 'a\u0001b': 'y' } },
        { type: 't', id: '1' },
        {
          type: 't',
          id: '2',
          collections: {
            c: [
              { itemId: 'i', value: 1 },
              { itemId: 'i', value: 2 },
            ],
          },
        },
      ],
    });
    const paths = problems.map((p) => p.path);
    assert.ok(paths.includes('body.objects[0].fields.list'), JSON.stringify(problems));
    assert.ok(paths.includes('body.objects[0].fields.n'));
    assert.ok(paths.includes('body.objects[0].fields.'));
    assert.ok(paths.includes('body.objects[0].fields.a\u0001b'));
    assert.ok(paths.includes('body.objects[1]'));
    assert.ok(paths.includes('body.objects[2].collections.c[1].itemId'));
  });

  it('refuses text no database can store: NUL and lone surrogates', () => {
    const problems = problemsOf({
      objects: [
        { type: 't', id: 'bad\uD800', fields: { s: 'a\u0000b' } },
        { type: 't', id: '2', collections: { c: [{ itemId: 'i', value: { k: '\uDC00' } }] } },
      ],
    });
    const paths = problems.map((p) => p.path);
    assert.ok(paths.includes('body.objects[0].id'), JSON.stringify(problems));
    assert.ok(paths.includes('body.objects[0].fields.s'));
    assert.ok(paths.includes('body.objects[1].collections.c[0].value'));
  });

  it('enforces the limits the schema cannot express: depth, value length, field count', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < LIMITS.flattenDepth; i++) deep = { d: deep };
    const many = Object.fromEntries(
      Array.from({ length: LIMITS.fieldsPerObject + 1 }, (_, i) => [`f${i}`, i]),
    );
    const problems = problemsOf({
      objects: [
        { type: 't', id: 'deep', fields: deep },
        { type: 't', id: 'long', fields: { s: 'x'.repeat(LIMITS.valueLength + 1) } },
        { type: 't', id: 'many', fields: many },
      ],
    });
    const messages = problems.map((p) => `${p.path}: ${p.message}`).join('\n');
    assert.match(messages, /nests deeper than/);
    assert.match(messages, /body\.objects\[1\]\.fields\.s: string values are limited/);
    assert.match(messages, /body\.objects\[2\]\.fields: an object has at most/);
  });

  it('lists at most 20 problems', () => {
    const fields = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, [i]]));
    assert.equal(problemsOf({ objects: [{ type: 't', id: '1', fields }] }).length, 20);
  });
});
