import assert from 'node:assert/strict';
import { executionAsyncResource } from 'node:async_hooks';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pinnedTickObject, pinTickObjectMaps } from './tick-maps.js';

// V8's own view of the objects: whether two share a map, and a full collection on demand. Both flags
// take effect for code compiled after they are set (this file runs in its own process).
setFlagsFromString('--allow-natives-syntax');
setFlagsFromString('--expose-gc');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const gc = runInNewContext('gc') as () => void;

/** The tick object node builds for the next process.nextTick: the resource its callback runs in. */
function nextTickObject(): Promise<object> {
  return new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource())));
}

/** `count` ticks in batches, enough for V8 to optimize nextTick. */
async function ticks(count: number): Promise<void> {
  for (let done = 0; done < count; done += 1_000) {
    await new Promise<void>((resolve) => {
      let left = 1_000;
      for (let i = 0; i < 1_000; i++) process.nextTick(() => --left === 0 && resolve());
    });
  }
}

describe('pinTickObjectMaps', () => {
  it("holds an object with the map of node's tick objects, which new ticks keep through full collections", async () => {
    pinTickObjectMaps();
    const pinned = pinnedTickObject();
    assert.ok(pinned);
    assert.ok(haveSameMap(pinned, await nextTickObject()), "the pinned object has a tick object's map");
    await ticks(100_000);
    // What an idle server's memory reducer does: full collections while no tick object is queued.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    assert.ok(haveSameMap(pinned, await nextTickObject()), 'a tick after the collections has a new map');
  });

  it('pins once', () => {
    pinTickObjectMaps();
    const first = pinnedTickObject();
    pinTickObjectMaps();
    assert.equal(pinnedTickObject(), first);
  });
});
