/**
 * Between stored field values and form controls. Each declared field type (contract §3) has a control
 * and a form value; `toWire` turns the form value back into what PATCH sends, or says why it cannot.
 * The checks mirror the server's (server/src/modules/definitions/field-types.ts), so an editor sees a
 * problem beside the field before saving; the server still decides.
 */

export const FIELD_TYPES = ['text', 'richtext', 'number', 'boolean', 'image', 'url', 'json'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const isFieldType = (t: string): t is FieldType => (FIELD_TYPES as readonly string[]).includes(t);

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
      if (isPlainObject(stored) && typeof stored.url === 'string') return stored.url;
      return typeof stored === 'string' ? stored : '';
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
      const text = String(value).trim();
      return { ok: true, value: text === '' ? null : text };
    }
    case 'richtext':
      return { ok: true, value };
    default:
      return { ok: true, value: String(value) };
  }
}

/** Stable JSON (keys sorted) to tell whether a value changed. */
export function sameValue(a: unknown, b: unknown): boolean {
  return stable(a ?? null) === stable(b ?? null);
}

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
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
    if (!(f.key in edits)) continue;
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
