import type { BlockDeclaration, FieldDeclaration, ValueContext } from './field-types.js';
import { compilePattern, matchesPattern, PatternTooLarge } from './pattern-engine.js';
import type { RuleBudget } from './rule-budget.js';

export { matchesPattern } from './pattern-engine.js';

/**
 * The small checks the field types are built from (field-types.ts): option checks, value tests
 * (dates, URLs, entry ids), the linear-time pattern engine and the item walks of lists and blocks.
 */

/**
 * An option's check: the message when the option's value is not valid, else null. `budget`: the
 * sync's rule budget (a pattern is compiled on it).
 */
export type OptionCheck = (
  value: unknown,
  declaration: FieldDeclaration,
  budget: RuleBudget,
) => string | null;

/** `object[key]` when it is the object's own (a key such as `constructor` must not reach the prototype). */
export const ownOf = <T>(object: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(object, key) ? object[key] : undefined;

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Length in Unicode code points (§17), not UTF-16 units: an emoji is one character. */
export const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** Schemes a `url` field or a `link` href may carry; anything else (javascript:, data:) would be a script in a link. */
const URL_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

export function isLinkable(value: string): boolean {
  if (/^(\/|#|\?|\.\/|\.\.\/)/.test(value)) return true; // relative reference
  try {
    return URL_SCHEMES.has(new URL(value).protocol);
  } catch {
    return false;
  }
}
export const LINKABLE = 'an http(s), mailto or tel URL, or a relative reference ("/path", "#anchor")';

/** A real calendar date as `YYYY-MM-DD`. */
export function isDate(v: unknown): v is string {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** RFC 3339 date-time: a real date, a real time, `Z` or an offset. */
export function isDateTime(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(v);
  if (!m || !isDate(m[1])) return false;
  const [h, min, s] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const offset = m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
  return h <= 23 && min <= 59 && s <= 60 && offset;
}

/** C0 and C1 control characters (a page id has none). */
export const hasControl = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
};

/** An entry id: `ent_` and 26 Crockford base-32 characters (src/shared/ids.ts). */
export const ENTRY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;

// Option checks, shared by the types that take them.
export const isBool: OptionCheck = (v) => (typeof v === 'boolean' ? null : 'must be true or false');
export const count =
  (max: number): OptionCheck =>
  (v) =>
    Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max
      ? null
      : `must be a whole number from 0 to ${max}`;
export const finite: OptionCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) ? null : 'must be a number';
export const dateOption: OptionCheck = (v) => (isDate(v) ? null : 'must be a date "YYYY-MM-DD"');
/** What a pattern the rule budget could not compile says (the sync is then a 422, contract §23). */
export const NOT_COMPILED = 'could not be compiled within the rules budget (CMS_RULES_BUDGET_MS)';
export const pattern: OptionCheck = (v, _d, budget) => {
  if (!isPlainObject(v) || typeof v.source !== 'string') return 'must be { source, message? }';
  const extra = Object.keys(v).filter((k) => k !== 'source' && k !== 'message');
  if (extra.length > 0) return `takes only source and message, not ${extra.join(', ')}`;
  if (v.message !== undefined && (typeof v.message !== 'string' || codePoints(v.message) > 500))
    return 'message must be a string of at most 500 characters';
  if (v.source.length === 0 || codePoints(v.source) > 200) return 'source must be 1 to 200 characters';
  try {
    return compilePattern(v.source, budget) ? null : `source ${NOT_COMPILED}`;
  } catch (err) {
    if (err instanceof PatternTooLarge) return `source ${err.message}`;
    return `source is not a pattern the linear-time engine (RE2 syntax) accepts: ${(err as Error).message}`;
  }
};
/** What a value says when the rule budget could not afford its pattern (contract §23: it breaks it). */
export const TOO_COSTLY =
  'counts as not matching its pattern: checking it was too costly (over the rules budget, CMS_RULES_BUDGET_MS)';

/** A text's `pattern` rule: the whole value, within the request's budget (pattern-engine.ts). */
export function patternRule(
  p: { source: string; message?: string },
  value: string,
  path: string,
  ctx: ValueContext,
): void {
  const matched = matchesPattern(p.source, value, ctx.budget);
  if (matched === undefined) ctx.fail(path, TOO_COSTLY);
  else if (!matched) ctx.fail(path, p.message ?? `must match the pattern ${p.source}`);
}

export const minNotAboveMax = (d: FieldDeclaration, min = 'min', max = 'max') =>
  typeof d[min] === 'number' && typeof d[max] === 'number' && (d[min] as number) > (d[max] as number)
    ? [{ option: min, message: `must not be more than ${max}` }]
    : [];
export const onlyWithMultiple = (d: FieldDeclaration) =>
  d.multiple === true
    ? []
    : ['min', 'max']
        .filter((o) => d[o] !== undefined)
        .map((option) => ({
          option,
          message: 'counts selected values: it needs multiple: true',
        }));
export const fieldList: OptionCheck = (v) =>
  Array.isArray(v) ? null : 'must be an array of field declarations';

/** Rule helpers: counts of items, selected values or references. */
export function countRules(n: number, d: FieldDeclaration, path: string, ctx: ValueContext, what: string) {
  if (typeof d.min === 'number' && n < d.min) ctx.fail(path, `must have at least ${d.min} ${what}`);
  if (typeof d.max === 'number' && n > d.max) ctx.fail(path, `must have at most ${d.max} ${what}`);
}

/** Every string in a structured richtext document, for its `maxLength` (§17). */
export function textLength(v: unknown): number {
  if (typeof v === 'string') return codePoints(v);
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + textLength(x), 0);
  if (isPlainObject(v)) return Object.values(v).reduce((n: number, x) => n + textLength(x), 0);
  return 0;
}

export const listOf = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : null);

/** What a JSON value is, in a problem's words ("an object", "a number"). */
export const kindOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : typeof v === 'boolean'
          ? 'true or false'
          : `a ${typeof v}`;

/**
 * Array values (multiple select, multiple reference): distinct strings, each checked by `one`. Every
 * item is judged: a non-string one (a number, an object dressed as a resolved reference) is a
 * problem at its path (contract §23, "shapes are total"; it used to be skipped, so it was stored).
 */
export function distinctStrings(
  value: unknown,
  path: string,
  ctx: ValueContext,
  max: number,
  one: (s: string, at: string) => boolean,
): boolean {
  const items = listOf(value);
  if (!items) return false;
  if (items.length > max) {
    ctx.fail(path, `must have at most ${max} values`);
    return true;
  }
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const at = `${path}[${i}]`;
    if (typeof item !== 'string') ctx.fail(at, `must be a string, not ${kindOf(item)}`);
    else if (one(item, at)) {
      if (seen.has(item)) ctx.fail(at, `is listed twice ("${item}")`);
      seen.add(item);
    }
  });
  return true;
}

export const optionValues = (d: FieldDeclaration) =>
  Array.isArray(d.options) ? (d.options as { value?: unknown }[]).map((o) => o?.value) : [];
export const quoteList = (values: unknown[]) =>
  values.length <= 10
    ? values.map((v) => JSON.stringify(v)).join(', ')
    : `${values
        .slice(0, 10)
        .map((v) => JSON.stringify(v))
        .join(', ')}, … (${values.length} in all)`;

/** A list's or blocks' items: an array of at most 1,000 objects, each with a distinct `_key`. */
export const MAX_ITEMS = 1000;
export function items(
  value: unknown,
  path: string,
  ctx: ValueContext,
  each: (item: Record<string, unknown>, at: string) => void,
): boolean {
  const list = listOf(value);
  if (!list) return false;
  if (list.length > MAX_ITEMS) {
    ctx.fail(path, `holds at most ${MAX_ITEMS} items, not ${list.length}`);
    return true;
  }
  const seen = new Set<string>();
  for (const [i, item] of list.entries()) {
    const at = `${path}[${i}]`;
    if (!isPlainObject(item)) {
      ctx.fail(at, 'must be an object');
      continue;
    }
    ctx.itemKey(item, at, seen);
    each(item, at);
  }
  return true;
}

export const blocksOf = (d: FieldDeclaration): BlockDeclaration[] =>
  Array.isArray(d.blocks) ? (d.blocks as BlockDeclaration[]) : [];
