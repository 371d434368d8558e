import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editAttributes, stegaClean } from '../src/index.js';
import { mark, markOf, unmark } from '../src/visual/stega.js';

describe('stega marks', () => {
  const id = 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2';

  it('hide an entry id after the text, invisibly, and give it back', () => {
    const marked = mark('Fresh bread', id);
    assert.ok(marked.startsWith('Fresh bread'));
    assert.match(marked.slice('Fresh bread'.length), /^[\u2063\u200b-\u200d\u2060]+$/);
    assert.equal(markOf(marked), id);
    // Found inside a longer text too: a value concatenated with others, as a component renders it.
    assert.equal(markOf(`Today: ${marked}, while it lasts`), id);
    assert.equal(markOf('Fresh bread'), undefined);
  });

  it('are removed by stegaClean (exported) and unmark (the session chunk): the same pattern', () => {
    const text = `${mark('One', id)} and ${mark('two', 'ent_other')}`;
    assert.equal(stegaClean(text), 'One and two');
    assert.equal(unmark(text), 'One and two');
    // Anything else comes back as it was.
    assert.equal(stegaClean(42), 42);
    const list = [mark('x', id)];
    assert.equal(stegaClean(list), list);
    assert.equal(stegaClean('plain'), 'plain');
  });

  it('editAttributes: nothing outside a session; the place a session gave a value, hidden from JSON and spreads', () => {
    assert.deepEqual(editAttributes({ _key: 'a', title: 'x' }), {});
    assert.deepEqual(editAttributes(undefined), {});
    assert.deepEqual(editAttributes('text'), {});
    const item = { _key: 'a' };
    Object.defineProperty(item, Symbol.for('folio.place'), { value: `${id}:items[_key=a]` });
    assert.deepEqual(editAttributes(item), { 'data-folio-place': `${id}:items[_key=a]` });
    assert.equal(JSON.stringify(item), '{"_key":"a"}');
    assert.deepEqual(editAttributes({ ...item }), {});
  });
});
