import assert from 'node:assert/strict';
import { it } from 'node:test';
import { idAt, newId } from './ids.js';

it('ids stay unique and in creation order across many refills of the randomness pool', () => {
  const ids = Array.from({ length: 5000 }, () => newId('evt'));
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual([...ids].sort(), ids);
  for (const id of ids.slice(0, 10)) assert.match(id, /^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
  // Ids stamped with one past time differ only by their (fresh) randomness.
  const stamped = Array.from({ length: 1000 }, () => idAt('his', 0));
  assert.equal(new Set(stamped).size, stamped.length);
});
