import type { FieldProblem } from '../../shared/errors.js';

/**
 * The contracted field types and what a value of each may be. `null` is never checked here: in a
 * PATCH it removes the key (JSON merge patch), so it is not a stored value.
 */
export const FIELD_TYPES = ['text', 'richtext', 'number', 'boolean', 'image', 'url', 'json'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Schemes a `url` field may carry; anything else (javascript:, data:) would be a script in a link. */
const URL_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

function isLinkable(value: string): boolean {
  if (/^(\/|#|\?|\.\/|\.\.\/)/.test(value)) return true; // relative reference
  try {
    return URL_SCHEMES.has(new URL(value).protocol);
  } catch {
    return false;
  }
}

const CHECKS: Record<FieldType, { ok: (v: unknown) => boolean; expected: string }> = {
  text: { ok: (v) => typeof v === 'string', expected: 'a string' },
  richtext: {
    ok: (v) => typeof v === 'string' || isPlainObject(v) || Array.isArray(v),
    expected: 'a string (HTML or Markdown) or a structured document (object or array)',
  },
  number: { ok: (v) => typeof v === 'number' && Number.isFinite(v), expected: 'a finite number' },
  boolean: { ok: (v) => typeof v === 'boolean', expected: 'true or false' },
  image: {
    ok: (v) => typeof v === 'string' || (isPlainObject(v) && typeof v.url === 'string'),
    expected: 'a string (URL or media id) or an object with a string "url"',
  },
  url: {
    ok: (v) => typeof v === 'string' && isLinkable(v),
    expected: 'an http(s), mailto or tel URL, or a relative reference ("/path", "#anchor")',
  },
  json: { ok: () => true, expected: 'any JSON value' },
};

/** The problem with `value` for a field declared as `type`, or null when it fits. */
export function checkFieldValue(type: string, value: unknown, path: string): FieldProblem | null {
  const check = CHECKS[type as FieldType];
  if (!check || check.ok(value)) return null;
  return { path, message: `must be ${check.expected} (field type "${type}")` };
}
