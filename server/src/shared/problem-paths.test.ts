import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pointerPath } from './problem-paths.js';

describe('pointerPath', () => {
  it('writes array indices in brackets and object keys after dots', () => {
    const body = { components: [{ fields: [{ key: 'a' }, { key: 'b' }, { type: 1 }] }] };
    assert.equal(
      pointerPath('body', '/components/0/fields/2/type', body),
      'body.components[0].fields[2].type',
    );
    assert.equal(pointerPath('body', '', body, 'pageId'), 'body.pageId');
    assert.equal(pointerPath('body', '/components/0', body, 'instanceKey'), 'body.components[0].instanceKey');
  });

  it('an object key of digits stays a key; an index past what was sent is still an index', () => {
    const body = { fields: { '0': 'x' }, list: ['a'] };
    assert.equal(pointerPath('body', '/fields/0', body), 'body.fields.0');
    assert.equal(pointerPath('body', '/list/3', body), 'body.list[3]');
    // Under a value that is not there, nothing is known to be an array.
    assert.equal(pointerPath('body', '/missing/0', body), 'body.missing.0');
  });

  it('unescapes the pointer and reads own keys only', () => {
    const body = { 'a/b': { '~c': [1] }, constructor: [0] };
    assert.equal(pointerPath('body', '/a~1b/~0c/0', body), 'body.a/b.~c[0]');
    assert.equal(pointerPath('body', '/constructor/0', body), 'body.constructor[0]');
    assert.equal(pointerPath('body', '/toString/0', {}), 'body.toString.0');
  });

  it('a query string array is an array too', () => {
    assert.equal(pointerPath('querystring', '/types/1', { types: ['a', 'b'] }), 'querystring.types[1]');
  });
});
