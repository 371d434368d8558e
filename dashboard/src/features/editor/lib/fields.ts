import type { Schemas } from '@folio/client';
import { has } from '../../../lib/own';

/**
 * Between stored field values and form controls. Each declared field type (contract §3) has a control
 * and a form value; `toWire` turns the form value back into what PATCH sends, or says why it cannot.
 * The checks mirror the server's (server/src/modules/definitions/field-types.ts), so an editor sees a
 * problem beside the field before saving; the server still decides.
 */

/** The types of contract §13, as the generated client names them (the runtime list `isFieldType` needs). */
type WireFieldType = Schemas['NestedFieldDeclaration']['type'];
export const FIELD_TYPES = [
  'text',
  'richtext',
  'number',
  'boolean',
  'select',
  'date',
  'datetime',
  'color',
  'image',
  'url',
  'json',
  'link',
  'reference',
  'object',
  'list',
  'blocks',
] as const satisfies readonly WireFieldType[];
export type FieldType = (typeof FIELD_TYPES)[number];
// The list above is the generated client's, checked both ways: no type it lacks, none it has left out.
const everyType: Exclude<WireFieldType, FieldType> extends never ? true : never = true;
void everyType;
export const isFieldType = (t: string): t is FieldType => (FIELD_TYPES as readonly string[]).includes(t);

/**
 * The types whose controls edit the stored value itself (a chosen value, a date, a link, an entry id,
 * an object, list items or blocks): '' stands for no value. Their controls load on demand
 * (components/structured/). The others keep their text-like form values.
 */
const WIRE_VALUED = new Set<FieldType>([
  'select',
  'date',
  'datetime',
  'color',
  'link',
  'reference',
  'object',
  'list',
  'blocks',
]);
export const isWireValued = (type: FieldType) => WIRE_VALUED.has(type);

/** text, url, image and json are edited as text; number as a number or ''; richtext as HTML or a document. */
export type FormValue = string | number | boolean | Record<string, unknown> | unknown[];

export type Wire = { ok: true; value: unknown } | { ok: false; error: string };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const URL_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

export function isLinkable(value: string): boolean {
  if (/^(\/|#|\?|\.\/|\.\.\/)/.test(value)) return true;
  try {
    return URL_SCHEMES.has(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The control's value for a stored value (a value of another type is shown as text, never dropped). */
export function toForm(type: FieldType, stored: unknown): FormValue {
  if (isWireValued(type)) {
    return typeof stored === 'string' ||
      typeof stored === 'number' ||
      isPlainObject(stored) ||
      Array.isArray(stored)
      ? stored
      : '';
  }
  switch (type) {
    case 'number':
      return typeof stored === 'number' ? stored : '';
    case 'boolean':
      return stored === true;
    case 'json':
      return stored === undefined ? '' : JSON.stringify(stored, null, 2);
    case 'richtext':
      return typeof stored === 'string' || isPlainObject(stored) || Array.isArray(stored) ? stored : '';
    case 'image':
      // A string, or an object with a `url` (contract §13), kept whole: its other keys (`alt`, `width`,
      // a `mediaId`, …) go back as they came (issue 44: they were dropped to `{ url, alt }`).
      return typeof stored === 'string' || (isPlainObject(stored) && typeof stored.url === 'string')
        ? stored
        : '';
    default:
      return typeof stored === 'string'
        ? stored
        : stored === undefined || stored === null
          ? ''
          : JSON.stringify(stored);
  }
}

/** What a PATCH sends for the control's value; null removes the key (an emptied optional field). */
export function toWire(type: FieldType, value: FormValue): Wire {
  if (isWireValued(type)) {
    if (value === '' || (Array.isArray(value) && value.length === 0 && type !== 'list' && type !== 'blocks'))
      return { ok: true, value: null };
    const error = wireError(type, value);
    return error ? { ok: false, error } : { ok: true, value };
  }
  switch (type) {
    case 'number':
      if (value === '' || value === null) return { ok: true, value: null };
      return typeof value === 'number' && Number.isFinite(value)
        ? { ok: true, value }
        : { ok: false, error: 'Enter a number' };
    case 'boolean':
      return { ok: true, value: value === true };
    case 'json': {
      const text = String(value).trim();
      if (text === '') return { ok: true, value: null };
      try {
        return { ok: true, value: JSON.parse(text) };
      } catch {
        return { ok: false, error: 'Not valid JSON' };
      }
    }
    case 'url': {
      const text = String(value).trim();
      if (text === '') return { ok: true, value: null };
      return isLinkable(text)
        ? { ok: true, value: text }
        : { ok: false, error: 'Enter an http(s), mailto: or tel: address, or a path such as /about' };
    }
    case 'image': {
      // The alt text is sent as typed, as a text field's is: trimmed, "Harbour at night " (the space
      // before the next word) was the stored value again, the edit was dropped as no change, and the
      // control showed the stored text without its space (issue 44).
      const url = imageParts(value).url.trim();
      if (url === '') return { ok: true, value: null };
      return { ok: true, value: isPlainObject(value) ? { ...value, url } : url };
    }
    case 'richtext':
      return { ok: true, value };
    default:
      return { ok: true, value: String(value) };
  }
}

/** An image control's address and alt text, from its value (a string, or an object with a `url`). */
export function imageParts(value: FormValue): { url: string; alt: string } {
  if (isPlainObject(value) && typeof value.url === 'string')
    return { url: value.url, alt: typeof value.alt === 'string' ? value.alt : '' };
  return { url: typeof value === 'string' ? value : '', alt: '' };
}

/**
 * The image control's value once its address or alt text changed. An object keeps its other keys
 * (`width`, `mediaId`, …) and, its alt text cleared, stays an object without `alt`. A value that was a
 * bare address when the control opened (`bare`) is one again once its alt text is cleared, so typing
 * alt text and taking it back is no change. Rejected: a bare address whenever only `url` is left,
 * which turned `{ url, alt }` into another shape than the one stored.
 */
export function imageValue(
  value: FormValue,
  change: { url?: string; alt?: string },
  bare: boolean,
): FormValue {
  const { url, alt } = { ...imageParts(value), ...change };
  const { alt: _, ...rest } = isPlainObject(value) ? value : {};
  if (alt !== '') return { ...rest, url, alt };
  return bare && Object.keys(rest).every((k) => k === 'url') ? url : { ...rest, url };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
export const ENTRY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * What is wrong with a wire-valued control's value before it is sent, or null. Only what the control
 * itself can get wrong (typed text); rules (required, min, max) are the server's `problems`.
 */
export function wireError(type: FieldType, value: unknown): string | null {
  switch (type) {
    case 'date':
      return typeof value === 'string' && DATE.test(value) ? null : 'Enter a date';
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? null : 'Enter a date and time';
    case 'color':
      return typeof value === 'string' && COLOR.test(value) ? null : 'Enter a colour such as #1a2b3c';
    case 'link':
      if (isPlainObject(value) && typeof value.href === 'string')
        return isLinkable(value.href)
          ? null
          : 'Enter an http(s), mailto: or tel: address, or a path such as /about';
      return isPlainObject(value) && typeof value.pageId === 'string'
        ? null
        : 'Choose a page or enter an address';
    case 'reference': {
      const ids = Array.isArray(value) ? value : [value];
      return ids.every((id) => typeof id === 'string' && ENTRY_ID.test(id))
        ? null
        : 'Enter an entry id ("ent_" and 26 characters) or search for one';
    }
    default:
      return null;
  }
}

/**
 * Whether two values are the same JSON, key order aside. Walked rather than serialised: an item that
 * kept its identity (every item but the one typed in, in a list of 200) costs one comparison, where
 * the sorted JSON of both lists, made on each keystroke, cost milliseconds.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  return same(a ?? null, b ?? null);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && same(a[k], b[k]));
  }
  // Numbers, strings, booleans, null: as JSON writes them (NaN as null, as the stored copy has it).
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The entry's fields as the form has them now: the stored fields with every valid edit applied (an
 * emptied optional field removed); an edit that is not valid yet keeps the stored value. This is what
 * the preview's site is sent as a draft (src/features/preview).
 */
export function workingFields(
  stored: Record<string, unknown>,
  declared: { key: string; type: FieldType }[],
  edits: Record<string, FormValue>,
): Record<string, unknown> {
  const fields = { ...stored };
  for (const f of declared) {
    if (!has(edits, f.key)) continue;
    const wire = toWire(f.type, edits[f.key]!);
    if (!wire.ok) continue;
    if (wire.value === null) delete fields[f.key];
    else fields[f.key] = wire.value;
  }
  return fields;
}

/**
 * Rows for a JSON field from its line count (then it scrolls). Not Mantine's `autosize`: that measures
 * the textarea's layout on every render, and on a page of 100 entries those forced layouts made a
 * keystroke take seconds.
 */
export const jsonRows = (text: string, min: number, max: number): number =>
  Math.min(max, Math.max(min, text.split('\n').length));

/** What a stored value is, in an editor's words ("an object", "text"). */
function kindOf(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (isPlainObject(v)) return 'an object';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number') return 'a number';
  return JSON.stringify(v) ?? 'empty';
}

/** What a field of each type holds, in an editor's words. */
function holdsOf(type: FieldType, multiple: boolean): string {
  const words: Record<FieldType, string> = {
    text: 'text',
    richtext: 'rich text',
    number: 'a number',
    boolean: 'yes or no',
    select: multiple ? 'choices from its list' : 'one choice from its list',
    date: 'a date',
    datetime: 'a date and time',
    color: 'a colour',
    image: 'an image',
    url: 'an address',
    json: 'any value',
    link: 'a link',
    reference: multiple ? 'references' : 'a reference',
    object: 'a group of fields',
    list: 'a list of items',
    blocks: 'sections',
  };
  return words[type];
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isItem = (v: unknown) => isPlainObject(v) && typeof v._key === 'string';

/**
 * Why a stored value cannot be shown by its field's control, or null when it can: a value the
 * declaration no longer accepts (a member's sync changed the field's type, and stored values are kept,
 * contract §17), or one written before the server checked every item (§23). The check is of kinds
 * only, as far as the control needs: a select's text not among its options, or a date badly written,
 * shows in its control with the server's problem. `undefined` and `null` are no value: they fit.
 */
export function misfitOf(type: FieldType, multiple: boolean, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  let bad: unknown = value;
  let inside = false;
  const items = (fits: (item: unknown) => boolean) => {
    if (!Array.isArray(value)) return false;
    const wrong = value.findIndex((item) => !fits(item));
    if (wrong === -1) return true;
    [bad, inside] = [value[wrong], true];
    return false;
  };
  let fits: boolean;
  switch (type) {
    case 'text':
    case 'url':
    case 'date':
    case 'datetime':
    case 'color':
      fits = isString(value);
      break;
    case 'richtext':
      fits = isString(value) || isPlainObject(value) || Array.isArray(value);
      break;
    case 'number':
      fits = typeof value === 'number' && Number.isFinite(value);
      break;
    case 'boolean':
      fits = typeof value === 'boolean';
      break;
    case 'image':
      fits = isString(value) || (isPlainObject(value) && isString(value.url));
      break;
    case 'json':
      fits = true;
      break;
    case 'link':
      fits = isPlainObject(value);
      break;
    case 'select':
      fits = multiple ? items(isString) : isString(value);
      break;
    case 'reference':
      // Ids, one or several, whatever `multiple` says now: its control shows and edits either.
      fits = isString(value) || items(isString);
      break;
    case 'object':
      fits = isPlainObject(value);
      break;
    case 'list':
    case 'blocks':
      fits = items(isItem);
      if (inside && isPlainObject(bad)) return notFitting('an item without a key', true, type, multiple);
      break;
  }
  return fits ? null : notFitting(kindOf(bad), inside, type, multiple);
}

const notFitting = (kind: string, inside: boolean, type: FieldType, multiple: boolean) =>
  `This value no longer fits the field (it ${inside ? 'holds' : 'is'} ${kind}; the field holds ${holdsOf(type, multiple)}). Replace or clear it.`;
