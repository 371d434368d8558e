import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageOrder } from './page-order.js';

describe('pageOrder', () => {
  it('a first sync is the order sent, not alphabetical', () => {
    assert.deepEqual(pageOrder([], ['hero', 'features', 'feature-1', 'feature-2', 'pricing']), [
      'hero',
      'features',
      'feature-1',
      'feature-2',
      'pricing',
    ]);
  });

  it('a full sync in a new order reorders the whole page', () => {
    assert.deepEqual(pageOrder(['a', 'b', 'c'], ['c', 'a', 'b']), ['c', 'a', 'b']);
  });

  it('a sync of one component that is on the page moves nothing', () => {
    assert.deepEqual(pageOrder(['hero', 'features', 'pricing'], ['features']), [
      'hero',
      'features',
      'pricing',
    ]);
  });

  it('a partial sync orders what it lists within their places and leaves the rest where it was', () => {
    // hero and pricing swap places; features, not listed, stays in the middle.
    assert.deepEqual(pageOrder(['hero', 'features', 'pricing'], ['pricing', 'hero']), [
      'pricing',
      'features',
      'hero',
    ]);
  });

  it('a new component goes right after the one sent before it', () => {
    assert.deepEqual(pageOrder(['hero', 'features', 'pricing'], ['hero', 'banner']), [
      'hero',
      'banner',
      'features',
      'pricing',
    ]);
    assert.deepEqual(pageOrder(['hero', 'pricing'], ['hero', 'banner', 'quote', 'pricing']), [
      'hero',
      'banner',
      'quote',
      'pricing',
    ]);
  });

  it('new components sent first go before the first listed component already on the page', () => {
    assert.deepEqual(pageOrder(['hero', 'features', 'pricing'], ['notice', 'features']), [
      'hero',
      'notice',
      'features',
      'pricing',
    ]);
  });

  it('a sync of new components only appends them in the order sent', () => {
    assert.deepEqual(pageOrder(['hero', 'pricing'], ['footer', 'legal']), [
      'hero',
      'pricing',
      'footer',
      'legal',
    ]);
  });

  it('keeps every component exactly once', () => {
    const stored = ['a', 'b', 'c', 'd'];
    const sent = ['x', 'd', 'y', 'b', 'z'];
    const order = pageOrder(stored, sent);
    assert.deepEqual([...order].sort(), ['a', 'b', 'c', 'd', 'x', 'y', 'z']);
    assert.deepEqual(order, ['a', 'x', 'd', 'y', 'c', 'b', 'z']);
  });
});
