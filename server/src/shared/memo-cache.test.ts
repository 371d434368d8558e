import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ChangeBus, createInProcessChangeBus, FLUSH_ALL } from '../db/dialect/change-bus.js';
import { MemoCache } from './memo-cache.js';

/** A load the test finishes by hand, to interleave an invalidation with it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const cacheOf = (bus: ChangeBus = createInProcessChangeBus(), maxBytes = 1_000) =>
  new MemoCache<string>(bus, (v) => v.length, maxBytes);

describe('MemoCache', () => {
  it('loads once, then serves from memory', async () => {
    const cache = cacheOf();
    let loads = 0;
    const load = async (key: string) => {
      loads++;
      return `value of ${key}`;
    };
    assert.equal(await cache.getOrLoad('a', load), 'value of a');
    assert.equal(await cache.getOrLoad('a', load), 'value of a');
    assert.equal(cache.get('a'), 'value of a');
    assert.equal(loads, 1);
  });

  it('counts hits and misses: a load is a miss, a cached answer or a successful peek a hit', async () => {
    const cache = cacheOf();
    const load = async (key: string) => `value of ${key}`;
    assert.deepEqual(cache.counts, { hits: 0, misses: 0 });
    await cache.getOrLoad('a', load);
    await cache.getOrLoad('a', load);
    assert.equal(cache.get('a'), 'value of a');
    assert.equal(cache.get('b'), undefined, 'a peek that finds nothing is not counted');
    assert.deepEqual(cache.counts, { hits: 2, misses: 1 });
  });

  it('does not store a value loaded across an invalidation of its key (the epoch race)', async () => {
    const cache = cacheOf();
    const slow = deferred<string>();
    const pending = cache.getOrLoad('a', () => slow.promise);
    cache.delete('a'); // a write committed while the load was reading the old row
    slow.resolve('old');
    assert.equal(await pending, 'old', 'the caller still gets what it loaded');
    assert.equal(cache.get('a'), undefined, 'but it is not kept: the next read loads again');
    assert.equal(await cache.getOrLoad('a', async () => 'new'), 'new');
    assert.equal(cache.get('a'), 'new');
  });

  it('refills without counting a miss, and says when an invalidation during the load refused it', async () => {
    const cache = cacheOf();
    assert.equal(await cache.refill('a', async () => 'v1'), true);
    assert.equal(cache.get('a'), 'v1');
    const slow = deferred<string>();
    const pending = cache.refill('a', () => slow.promise);
    cache.delete('a');
    slow.resolve('old');
    assert.equal(await pending, false, 'refused: the caller loads again from after the change');
    assert.equal(cache.get('a'), undefined);
    assert.equal(
      await cache.refill(
        'a',
        async () => 'ignored',
        () => false,
      ),
      true,
      'not kept: nothing to retry',
    );
    assert.deepEqual(cache.counts, { hits: 1, misses: 0 });
  });

  it('any invalidation during a load counts, not only of the same key (deleteWhere, flush)', async () => {
    const bus = createInProcessChangeBus();
    const cache = cacheOf(bus);
    for (const invalidate of [
      () => cache.deleteWhere(() => false),
      () => cache.clear(),
      () => bus.deliverLocal(FLUSH_ALL, ''),
    ]) {
      const slow = deferred<string>();
      const pending = cache.getOrLoad('b', () => slow.promise);
      invalidate();
      slow.resolve('stale?');
      await pending;
      assert.equal(cache.get('b'), undefined);
    }
  });

  it('a load that started after the invalidation is stored', async () => {
    const cache = cacheOf();
    cache.delete('a');
    await cache.getOrLoad('a', async () => 'fresh');
    assert.equal(cache.get('a'), 'fresh');
  });

  it('keeps nothing that `keep` refuses (unknown keys, empty pages)', async () => {
    const cache = cacheOf();
    const known = (v: string) => v !== '';
    assert.equal(await cache.getOrLoad('missing', async () => '', known), '');
    assert.equal(cache.get('missing'), undefined);
  });

  it('serves nothing while the bus is not live, and stores nothing loaded then', async () => {
    const bus = { ...createInProcessChangeBus(), live: false };
    const cache = cacheOf(bus);
    let loads = 0;
    const load = async () => {
      loads++;
      return 'x';
    };
    await cache.getOrLoad('a', load);
    await cache.getOrLoad('a', load);
    assert.equal(loads, 2);
    assert.equal(cache.get('a'), undefined);
  });

  it('evicts the oldest entries past maxBytes and never stores a value larger than it', async () => {
    const cache = cacheOf(createInProcessChangeBus(), 10);
    await cache.getOrLoad('a', async () => 'aaaa');
    await cache.getOrLoad('b', async () => 'bbbb');
    await cache.getOrLoad('c', async () => 'cccc');
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('b'), 'bbbb');
    assert.equal(cache.get('c'), 'cccc');
    await cache.getOrLoad('huge', async () => 'x'.repeat(11));
    assert.equal(cache.get('huge'), undefined);
    assert.equal(cache.get('c'), 'cccc');
  });
});
