import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedMemo } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('keeps values until the entry bound, then evicts the oldest first', () => {
    const memo = new BoundedMemo<number>(2, 1_000);
    memo.set('a', 1, 10);
    memo.set('b', 2, 10);
    memo.set('c', 3, 10);
    assert.equal(memo.get('a'), undefined);
    assert.equal(memo.get('b'), 2);
    assert.equal(memo.get('c'), 3);
    assert.deepEqual(memo.size, { entries: 2, bytes: 20 });
  });

  it('is bounded by bytes: large entries evict as many old ones as they need', () => {
    const memo = new BoundedMemo<string>(1_000, 100);
    for (let i = 0; i < 10; i++) memo.set(`k${i}`, 'x', 10);
    assert.deepEqual(memo.size, { entries: 10, bytes: 100 });
    memo.set('big', 'y', 25);
    assert.deepEqual(memo.size, { entries: 8, bytes: 95 });
    assert.equal(memo.get('k0'), undefined);
    assert.equal(memo.get('k2'), undefined);
    assert.equal(memo.get('k3'), 'x');
    assert.equal(memo.get('big'), 'y');
  });

  it('does not keep a value over a quarter of its bound, and replaces a key in place', () => {
    const memo = new BoundedMemo<string>(10, 100);
    memo.set('a', 'x', 10);
    memo.set('huge', 'y', 26);
    assert.equal(memo.get('huge'), undefined);
    assert.equal(memo.get('a'), 'x', 'nothing evicted for it');
    memo.set('a', 'z', 20);
    assert.equal(memo.get('a'), 'z');
    assert.deepEqual(memo.size, { entries: 1, bytes: 20 });
  });
});
