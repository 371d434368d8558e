import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDeclarations } from './field-declarations.js';
import type { FieldDeclaration } from './field-types.js';
import { checkPublish, checkWrite, newItemKey } from './field-values.js';

const declared = (...fields: FieldDeclaration[]) => new Map(fields.map((f) => [f.key, f]));

describe('field values', () => {
  it('a hostile pattern runs in linear time (RE2): no backtracking blow-up', () => {
    const d = declared({ key: 's', type: 'text', pattern: { source: '(a+)+b' } });
    const started = performance.now();
    const report = checkPublish(d, { s: 'a'.repeat(100_000) });
    assert.ok(performance.now() - started < 2_000);
    assert.deepEqual(report.problems, [{ path: 'fields.s', message: 'must match the pattern (a+)+b' }]);
  });

  it('a source that only compiles once wrapped is refused', () => {
    const problems = checkDeclarations([{ key: 's', type: 'text', pattern: { source: 'a)|(b' } }], 'f');
    assert.equal(problems[0]?.path, 'f[0].pattern');
  });

  it('patterns match the whole value, and lengths count code points', () => {
    const d = declared({ key: 's', type: 'text', maxLength: 2, pattern: { source: 'a|😀+' } });
    assert.deepEqual(checkPublish(d, { s: '😀😀' }).problems, []);
    assert.equal(checkPublish(d, { s: 'ab' }).problems.length, 1);
  });

  it('a write assigns missing _keys in place and keeps the ones sent', () => {
    const d = declared({ key: 'l', type: 'list', fields: [{ key: 't', type: 'text' }] });
    const value = { l: [{ t: 'a' }, { _key: 'mine', t: 'b' }] };
    assert.deepEqual(checkWrite(d, value, 'body.fields').problems, []);
    assert.match((value.l[0] as { _key: string })._key, /^[A-Za-z0-9]{12}$/);
    assert.equal(value.l[1]?._key, 'mine');
    assert.match(newItemKey(), /^[A-Za-z0-9]{12}$/);
  });

  it('a key named like an Object.prototype member is not found on the prototype', () => {
    const d = declared({ key: 'constructor', type: 'text', required: true });
    assert.deepEqual(checkPublish(d, {}).problems, [{ path: 'fields.constructor', message: 'is required' }]);
    assert.equal(checkDeclarations([{ key: 'x', type: 'toString' }], 'f')[0]?.path, 'f[0].type');
    assert.equal(
      checkDeclarations([{ key: 'x', type: 'text', constructor: 1 }], 'f')[0]?.path,
      'f[0].constructor',
    );
  });

  it('rules inside a container apply only where it is present; required fires on "" and missing', () => {
    const d = declared(
      { key: 'o', type: 'object', fields: [{ key: 't', type: 'text', required: true }] },
      { key: 'r', type: 'text', required: true },
      { key: 'n', type: 'number', required: false, min: 1 },
    );
    assert.deepEqual(
      checkPublish(d, { r: '' }).problems.map((p) => p.path),
      ['fields.r'],
    );
    assert.deepEqual(
      checkPublish(d, { o: {}, r: 'x' }).problems.map((p) => p.path),
      ['fields.o.t'],
    );
  });
});
