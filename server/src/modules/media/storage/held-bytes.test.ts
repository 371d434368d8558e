import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHeldBytes } from './held-bytes.js';

const meta = { contentType: 'image/png', sha256: 'x', filename: 'a.png' };
/** Holds `size` bytes under `key`, as a store does after reading an object of that size. */
const put = (held: ReturnType<typeof createHeldBytes>, key: string, size: number, version = 'v1') =>
  held.hold(key, Buffer.alloc(size, key.length), meta, version, size);

describe('held media bytes', () => {
  it('keeps at most its limit, the least recently served leaving first', () => {
    const held = createHeldBytes(400);
    for (const key of ['a', 'b', 'c', 'd']) put(held, key, 100);
    assert.equal(held.size(), 400);
    assert.ok(held.current('a', 'v1', 100)); // now the most recent: b is the oldest
    put(held, 'e', 100);
    assert.equal(held.size(), 400);
    assert.equal(held.has('b'), false);
    for (const key of ['a', 'c', 'd', 'e']) assert.ok(held.current(key, 'v1', 100), key);
  });

  it('takes a file of at most a quarter of the limit and 256 KiB, and keeps only what it takes', () => {
    assert.equal(createHeldBytes(400).takes(100), true);
    assert.equal(createHeldBytes(400).takes(101), false);
    assert.equal(createHeldBytes(1 << 30).takes(256 * 1024), true);
    assert.equal(createHeldBytes(1 << 30).takes(256 * 1024 + 1), false);
    const small = createHeldBytes(400);
    assert.equal(put(small, 'big', 101).size, 101, 'served all the same');
    assert.equal(small.size(), 0);
    const none = createHeldBytes(0);
    put(none, 'a', 1);
    assert.equal(none.size(), 0);
  });

  it('serves but does not keep bytes whose length differs from the size the store found', () => {
    const held = createHeldBytes(1000);
    const object = held.hold('a', Buffer.alloc(10), meta, 'v1', 12);
    assert.equal(object.bytes?.().length, 10);
    assert.equal(held.has('a'), false);
  });

  it('replaces a key without counting it twice, and forgets by key and by prefix', () => {
    const held = createHeldBytes(1000);
    put(held, 'variants/p/m/a', 100);
    put(held, 'variants/p/m/a', 50);
    assert.equal(held.size(), 50);
    put(held, 'variants/p/m/b', 100);
    put(held, 'originals/p/m', 100);
    held.forgetPrefix('variants/p/');
    assert.equal(held.size(), 100);
    held.forget('originals/p/m');
    assert.equal(held.size(), 0);
  });

  it('serves a held object only at the version and size it was read under, and forgets it otherwise', () => {
    const held = createHeldBytes(1000);
    put(held, 'a', 10, '42:5');
    assert.ok(held.current('a', '42:5', 10));
    assert.equal(held.current('a', '42:5', 11), undefined);
    assert.equal(held.has('a'), false, 'forgotten');
    put(held, 'a', 10, '42:5');
    assert.equal(held.current('a', '43:5', 10), undefined);
    assert.equal(held.size(), 0);
    assert.equal(held.current('nothing', 'v1', 1), undefined);
  });
});
