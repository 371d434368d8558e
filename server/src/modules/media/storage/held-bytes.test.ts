import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHeldBytes, type Held } from './held-bytes.js';

const entry = (size: number, version = 'v1'): Held => ({
  bytes: Buffer.alloc(size),
  meta: { contentType: 'image/png', sha256: 'x', filename: 'a.png' },
  version,
});

describe('held media bytes', () => {
  it('keeps at most its limit, the least recently served leaving first', () => {
    const held = createHeldBytes(400);
    for (const key of ['a', 'b', 'c', 'd']) held.keep(key, entry(100));
    assert.equal(held.size(), 400);
    held.get('a'); // now the most recent: b is the oldest
    held.keep('e', entry(100));
    assert.equal(held.size(), 400);
    assert.equal(held.get('b'), undefined);
    for (const key of ['a', 'c', 'd', 'e']) assert.ok(held.get(key), key);
  });

  it('takes a file of at most a quarter of the limit and 256 KiB', () => {
    assert.equal(createHeldBytes(400).takes(100), true);
    assert.equal(createHeldBytes(400).takes(101), false);
    assert.equal(createHeldBytes(1 << 30).takes(256 * 1024), true);
    assert.equal(createHeldBytes(1 << 30).takes(256 * 1024 + 1), false);
    assert.equal(createHeldBytes(0).takes(0), true, 'an empty file costs nothing');
    const none = createHeldBytes(0);
    none.keep('a', entry(1));
    assert.equal(none.size(), 0);
  });

  it('replaces a key without counting it twice, and forgets by key and by prefix', () => {
    const held = createHeldBytes(1000);
    held.keep('variants/p/m/a', entry(100));
    held.keep('variants/p/m/a', entry(50));
    assert.equal(held.size(), 50);
    held.keep('variants/p/m/b', entry(100));
    held.keep('originals/p/m', entry(100));
    held.forgetPrefix('variants/p/');
    assert.equal(held.size(), 100);
    held.forget('originals/p/m');
    assert.equal(held.size(), 0);
  });

  it('matches only the version and size the bytes were read from', () => {
    const held = createHeldBytes(1000);
    const kept = entry(10, '42:5');
    assert.equal(held.matches(kept, '42:5', 10), true);
    assert.equal(held.matches(kept, '43:5', 10), false);
    assert.equal(held.matches(kept, '42:5', 11), false);
  });
});
