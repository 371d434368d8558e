import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newestIdBytes, requestIdOf } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('echoes a sane x-request-id and makes a random UUID for anything else', () => {
    assert.equal(requestIdOf('req-1.a:b_C'), 'req-1.a:b_C');
    for (const given of [undefined, '', 'has space', 'x'.repeat(129), ['a', 'b'], 'quote"']) {
      const id = requestIdOf(given);
      assert.match(id, UUID, JSON.stringify(given));
    }
    assert.notEqual(requestIdOf(undefined), requestIdOf(undefined));
  });

  it("gives the bytes of the id made last, and nothing for an older or a caller's id", () => {
    const older = requestIdOf(undefined);
    const newest = requestIdOf(undefined);
    assert.deepEqual(Buffer.from(newestIdBytes(newest) ?? []).toString('latin1'), newest);
    assert.equal(newestIdBytes(older), undefined);
    assert.equal(newestIdBytes('given-1'), undefined);
    assert.equal(newestIdBytes(requestIdOf('given-2')), undefined);
  });
});
