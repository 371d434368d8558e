import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { titleOfFields } from './entry-title.js';

describe('titleOfFields: an entry title from the head of its stored fields', () => {
  it('takes the first non-blank top-level string, skipping keys, numbers, blanks and nested values', () => {
    const fields = {
      a: 3,
      b: '  ',
      c: { title: 'nested' },
      d: ['listed'],
      e: true,
      f: 'Harbour "at" night',
      g: 'later',
    };
    assert.equal(titleOfFields(JSON.stringify(fields)), 'Harbour "at" night');
  });

  it('is null without one, or when the head ends inside the string', () => {
    assert.equal(titleOfFields('{}'), null);
    assert.equal(titleOfFields(JSON.stringify({ n: 1, list: [{ x: 'y' }] })), null);
    assert.equal(titleOfFields('{"title":"cut off her'), null);
  });

  it('cuts a long title at 80 characters, counting code points', () => {
    const long = '🙂'.repeat(100);
    assert.equal(titleOfFields(JSON.stringify({ t: long })), '🙂'.repeat(80));
  });

  it('reads escapes as JSON does', () => {
    assert.equal(titleOfFields(JSON.stringify({ t: 'a\\"b\nc' })), 'a\\"b\nc');
  });
});
