import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesPattern } from './field-checks.js';

describe('matchesPattern', () => {
  it('gives the same answer remembered as computed, per pattern, for short and long values', () => {
    for (let round = 0; round < 2; round++) {
      assert.equal(matchesPattern('[a-z]+', 'abc'), true);
      assert.equal(matchesPattern('[a-z]+', 'abc1'), false);
      assert.equal(matchesPattern('[0-9]+', 'abc'), false, 'another pattern, the same value');
      assert.equal(matchesPattern('a', 'a\u0000b'), false);
      assert.equal(matchesPattern('a\u0000b', ''), false, 'no separator for a key to confuse');
      assert.equal(matchesPattern('a.*', 'a'.repeat(1000)), true, 'long values are not remembered');
      assert.equal(matchesPattern('a+', `${'a'.repeat(1000)}b`), false);
    }
  });

  it('stays right after it forgets (more results than it keeps)', () => {
    for (let i = 0; i < 25_000; i++) assert.equal(matchesPattern('[0-9]+', String(i)), true);
    assert.equal(matchesPattern('[0-9]+', 'x'), false);
    assert.equal(matchesPattern('[0-9]+', '7'), true);
  });
});
