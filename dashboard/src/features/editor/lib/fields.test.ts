import { describe, expect, it } from 'vitest';
import { type FieldType, sameValue, toForm, toWire } from './fields';

/**
 * What the form compares an edit with: a control's value turned back into the wire value (toWire)
 * must equal the stored value it was shown from (toForm), or an untouched field would count as an
 * edit (the "unsaved changes" badge, a save that sends it) and a value typed back to the stored one
 * would stay an edit.
 */
const ENTRY = 'ent_01HZX5Q8M9N2P3R4S5T6V7W8XY';
const STORED: [FieldType, unknown][] = [
  ['text', 'Hello'],
  ['richtext', { type: 'doc', content: [{ type: 'paragraph' }] }],
  ['richtext', '<p>Hi</p>'],
  ['number', 3.5],
  ['boolean', true],
  ['select', 'b'],
  ['select', ['a', 'b']],
  ['date', '2026-06-01'],
  ['datetime', '2026-06-01T10:00:00.000Z'],
  ['color', '#1a2b3c'],
  ['url', '/about'],
  ['json', { a: [1, { b: null }], c: 'd' }],
  ['link', { pageId: '/' }],
  ['link', { href: 'https://example.com' }],
  ['reference', ENTRY],
  ['reference', [ENTRY]],
  ['object', { title: 'x', count: 2 }],
  ['list', [{ _key: 'a', title: 'One' }]],
  ['blocks', [{ _key: 'b', _type: 'Hero', title: 'Two' }]],
  ['image', 'https://example.com/a.png'],
  ['image', { url: 'https://example.com/a.png', alt: 'A harbour' }],
];

describe('toForm and toWire', () => {
  it.each(STORED)('a stored %s value comes back as itself: no edit', (type, stored) => {
    const wire = toWire(type, toForm(type, stored));
    expect(wire.ok).toBe(true);
    expect(wire.ok && sameValue(wire.value, stored)).toBe(true);
  });

  it.each(['number', 'url', 'json', 'image', 'date', 'list', 'reference', 'link'] as FieldType[])(
    'an absent %s value is an empty control, which sends nothing (null): no edit',
    (type) => {
      const wire = toWire(type, toForm(type, undefined));
      expect(wire).toEqual({ ok: true, value: null });
      expect(sameValue(wire.ok && wire.value, undefined)).toBe(true);
    },
  );

  it('json is compared as data, not as text: spaces and key order are no edit', () => {
    const wire = toWire('json', '{ "c": "d",\n  "a": [1, {"b": null}] }');
    expect(wire.ok && sameValue(wire.value, { a: [1, { b: null }], c: 'd' })).toBe(true);
  });

  it('a changed value is an edit: a number is not its text, a list item changed or moved', () => {
    expect(sameValue(1, '1')).toBe(false);
    expect(sameValue([{ _key: 'a' }, { _key: 'b' }], [{ _key: 'b' }, { _key: 'a' }])).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    const wire = toWire('text', `${toForm('text', 'Hello')} `);
    expect(wire.ok && sameValue(wire.value, 'Hello')).toBe(false);
  });

  it('an emptied optional field sends null, the same as no value', () => {
    expect(toWire('text', '')).toEqual({ ok: true, value: '' });
    expect(toWire('url', '  ')).toEqual({ ok: true, value: null });
    expect(toWire('number', '')).toEqual({ ok: true, value: null });
    expect(sameValue(null, undefined)).toBe(true);
  });

  it('a value its control cannot send yet is no wire value: the stored one stays', () => {
    expect(toWire('json', '{').ok).toBe(false);
    expect(toWire('date', '2026-6').ok).toBe(false);
    expect(toWire('color', '#12').ok).toBe(false);
  });
});
