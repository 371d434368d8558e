import {
  blocksOf,
  codePoints,
  count,
  countRules,
  dateOption,
  distinctStrings,
  ENTRY_ID,
  fieldList,
  finite,
  hasControl,
  isBool,
  isDate,
  isDateTime,
  isLinkable,
  isPlainObject,
  items,
  LINKABLE,
  MAX_ITEMS,
  minNotAboveMax,
  type OptionCheck,
  onlyWithMultiple,
  optionValues,
  ownOf,
  pattern,
  patternRule,
  quoteList,
  textLength,
} from './field-checks.js';
import type { RuleBudget } from './rule-budget.js';

export { codePoints, isPlainObject, ownOf } from './field-checks.js';

/**
 * The one place that knows each field type (contract §13, §17; STYLE.md rule 20): for every type,
 * the options its declaration may carry, the shape of its value (checked on every write, drafts
 * included: a 400) and its rules (checked only when publishing: a 422). The walkers that apply them
 * to a whole entry or a whole declaration are field-values.ts and field-declarations.ts; services
 * never branch on a type themselves.
 */
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
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A declaration as sent and stored: `{ key, type, ...options }`. */
export interface FieldDeclaration {
  key: string;
  type: string;
  [option: string]: unknown;
}

export interface BlockDeclaration {
  componentId: string;
  label?: string;
  fields: FieldDeclaration[];
}

/** What a value check reports through: problems, and the nested walk for containers. */
export interface ValueContext {
  /** `write`: shape only, `_key`s assigned; `publish`: shape and rules, nothing changed. */
  phase: 'write' | 'publish';
  /** The request's rule budget (contract §23): what costly rules (patterns) may spend. */
  budget: RuleBudget;
  fail(path: string, message: string): void;
  /** Checks the fields of a container's object (declared keys only: an unknown key is a problem). */
  walkObject(
    fields: FieldDeclaration[],
    value: Record<string, unknown>,
    path: string,
    allowed: string[],
  ): void;
  /** Checks `_key` (assigned on write when missing) and its uniqueness within `seen`. */
  itemKey(item: Record<string, unknown>, path: string, seen: Set<string>): void;
  /** A `link` to a page of this project, to be checked for existence at publish (one query for all). */
  linkedPage(path: string, pageId: string): void;
  /** A reference id, for the check of its target (same project, allowed componentIds: issue 34 item 4). */
  referenced(path: string, id: string, declaration: FieldDeclaration): void;
}

export interface FieldTypeSpec {
  /** Options of this type beyond the common ones (label, help, required, default, localized). */
  options: Record<string, OptionCheck>;
  /** Options a declaration of this type must carry. */
  requires?: readonly string[];
  /** Checks between options (min ≤ max, …): messages keyed by the option they concern. */
  declare?(declaration: FieldDeclaration): { option: string; message: string }[];
  /** The declarations nested in a container, each list with the path below the declaration. */
  children?(declaration: FieldDeclaration): { path: string; fields: FieldDeclaration[] }[];
  /** `reference` and `link` take no `default` (§17). */
  noDefault?: boolean;
  /** The value counts items (a list, a multiple select): a `min` fires on a missing value too. */
  counts?(declaration: FieldDeclaration): boolean;
  /** How a value must look, in one phrase ("a string"). */
  expected: string | ((declaration: FieldDeclaration) => string);
  /** Whether a value has the shape; containers report nested problems through `ctx` and return true. */
  shape(value: unknown, declaration: FieldDeclaration, path: string, ctx: ValueContext): boolean;
  /** The rules, at publish, on a value of the right shape that is not empty. */
  rules?(value: unknown, declaration: FieldDeclaration, path: string, ctx: ValueContext): void;
}

export const FIELD_TYPE_SPECS: Record<FieldType, FieldTypeSpec> = {
  text: {
    options: {
      minLength: count(100_000),
      maxLength: count(100_000),
      pattern,
      multiline: isBool,
    },
    declare: (d) => minNotAboveMax(d, 'minLength', 'maxLength'),
    expected: 'a string',
    shape: (v) => typeof v === 'string',
    rules(v, d, path, ctx) {
      const n = codePoints(v as string);
      if (typeof d.minLength === 'number' && n < d.minLength)
        ctx.fail(path, `must be at least ${d.minLength} characters`);
      if (typeof d.maxLength === 'number' && n > d.maxLength)
        ctx.fail(path, `must be at most ${d.maxLength} characters`);
      const p = d.pattern as { source: string; message?: string } | undefined;
      if (p) patternRule(p, v as string, path, ctx);
    },
  },
  richtext: {
    options: { maxLength: count(1_000_000) },
    expected: 'a string (HTML or Markdown) or a structured document (object or array)',
    shape: (v) => typeof v === 'string' || isPlainObject(v) || Array.isArray(v),
    rules(v, d, path, ctx) {
      // Tags are not counted in a string; a structured document counts its string values.
      const n = typeof v === 'string' ? codePoints(v.replace(/<[^>]*>/g, '')) : textLength(v);
      if (typeof d.maxLength === 'number' && n > d.maxLength)
        ctx.fail(path, `must be at most ${d.maxLength} characters of text`);
    },
  },
  number: {
    options: { min: finite, max: finite, integer: isBool },
    declare: (d) => minNotAboveMax(d),
    expected: 'a finite number',
    shape: (v) => typeof v === 'number' && Number.isFinite(v),
    rules(v, d, path, ctx) {
      const n = v as number;
      if (d.integer === true && !Number.isInteger(n)) ctx.fail(path, 'must be a whole number');
      if (typeof d.min === 'number' && n < d.min) ctx.fail(path, `must be at least ${d.min}`);
      if (typeof d.max === 'number' && n > d.max) ctx.fail(path, `must be at most ${d.max}`);
    },
  },
  boolean: { options: {}, expected: 'true or false', shape: (v) => typeof v === 'boolean' },
  select: {
    options: {
      options(v) {
        if (!Array.isArray(v) || v.length < 1 || v.length > 200)
          return 'must be an array of 1 to 200 choices { value, label? }';
        const seen = new Set<string>();
        for (const [i, o] of v.entries()) {
          if (
            !isPlainObject(o) ||
            typeof o.value !== 'string' ||
            o.value.length === 0 ||
            o.value.length > 200
          )
            return `[${i}] must be { value, label? } with a value of 1 to 200 characters`;
          if (Object.keys(o).some((k) => k !== 'value' && k !== 'label'))
            return `[${i}] takes only value and label`;
          if (o.label !== undefined && (typeof o.label !== 'string' || codePoints(o.label) > 100))
            return `[${i}].label must be a string of at most 100 characters`;
          if (seen.has(o.value)) return `[${i}] repeats the value "${o.value}"`;
          seen.add(o.value);
        }
        return null;
      },
      multiple: isBool,
      min: count(200),
      max: count(200),
    },
    requires: ['options'],
    declare: (d) => [...minNotAboveMax(d), ...onlyWithMultiple(d)],
    counts: (d) => d.multiple === true,
    expected: (d) =>
      d.multiple === true
        ? `an array of distinct values among ${quoteList(optionValues(d))}`
        : `one of ${quoteList(optionValues(d))}`,
    shape(v, d, path, ctx) {
      const allowed = new Set(optionValues(d));
      if (d.multiple !== true) return typeof v === 'string' && allowed.has(v);
      return distinctStrings(v, path, ctx, 200, (s, at) => {
        if (allowed.has(s)) return true;
        ctx.fail(at, `must be one of ${quoteList([...allowed])}`);
        return false;
      });
    },
    rules(v, d, path, ctx) {
      if (d.multiple === true) countRules((v as unknown[]).length, d, path, ctx, 'values selected');
    },
  },
  date: {
    options: { min: dateOption, max: dateOption },
    declare: (d) =>
      isDate(d.min) && isDate(d.max) && d.min > d.max
        ? [{ option: 'min', message: 'must not be after max' }]
        : [],
    expected: 'a date "YYYY-MM-DD"',
    shape: isDate,
    rules(v, d, path, ctx) {
      if (isDate(d.min) && (v as string) < d.min) ctx.fail(path, `must be on or after ${d.min}`);
      if (isDate(d.max) && (v as string) > d.max) ctx.fail(path, `must be on or before ${d.max}`);
    },
  },
  datetime: {
    options: {},
    expected: 'an RFC 3339 date-time with Z or an offset ("2026-11-27T09:30:00Z")',
    shape: isDateTime,
  },
  color: {
    options: {},
    expected: 'a color "#rgb", "#rrggbb" or "#rrggbbaa"',
    shape: (v) => typeof v === 'string' && /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(v),
  },
  image: {
    options: {},
    expected: 'a string (URL or media id) or an object with a string "url"',
    shape: (v) => typeof v === 'string' || (isPlainObject(v) && typeof v.url === 'string'),
  },
  url: { options: {}, expected: LINKABLE, shape: (v) => typeof v === 'string' && isLinkable(v) },
  json: { options: {}, expected: 'any JSON value', shape: () => true },
  link: {
    options: {},
    noDefault: true,
    expected: `{ "pageId": "/about" } (a page of this project) or { "href": … } (${LINKABLE})`,
    shape(v, _d, path, ctx) {
      if (!isPlainObject(v)) return false;
      const keys = Object.keys(v);
      if (keys.length !== 1) return false;
      if (typeof v.href === 'string') {
        if (!isLinkable(v.href)) ctx.fail(`${path}.href`, `must be ${LINKABLE}`);
        return true;
      }
      if (typeof v.pageId !== 'string') return false;
      const pageId = v.pageId;
      if (pageId.length === 0 || pageId.length > 512 || hasControl(pageId))
        ctx.fail(`${path}.pageId`, 'must be a page id of 1 to 512 characters without control characters');
      else if (pageId.startsWith('@'))
        ctx.fail(`${path}.pageId`, 'cannot link to a shared page ("@…"): it is not a route of the site');
      else ctx.linkedPage(`${path}.pageId`, pageId);
      return true;
    },
  },
  reference: {
    options: {
      componentIds: (v) =>
        Array.isArray(v) &&
        v.length <= 50 &&
        v.every((c) => typeof c === 'string' && c.length > 0 && c.length <= 128) &&
        new Set(v).size === v.length
          ? null
          : 'must be an array of at most 50 distinct componentIds',
      multiple: isBool,
      min: count(100),
      max: count(100),
    },
    noDefault: true,
    declare: (d) => [...minNotAboveMax(d), ...onlyWithMultiple(d)],
    counts: (d) => d.multiple === true,
    expected: (d) =>
      d.multiple === true ? 'an array of distinct entry ids ("ent_…")' : 'an entry id ("ent_…")',
    shape(v, d, path, ctx) {
      const one = (s: string, at: string) => {
        if (!ENTRY_ID.test(s)) {
          ctx.fail(at, 'must be an entry id ("ent_" and 26 characters)');
          return false;
        }
        ctx.referenced(at, s, d);
        return true;
      };
      if (d.multiple === true) return distinctStrings(v, path, ctx, 100, one);
      if (typeof v !== 'string') return false;
      one(v, path);
      return true;
    },
    rules(v, d, path, ctx) {
      if (d.multiple === true) countRules((v as unknown[]).length, d, path, ctx, 'references');
    },
  },
  object: {
    options: { fields: fieldList },
    requires: ['fields'],
    children: (d) => [{ path: '.fields', fields: d.fields as FieldDeclaration[] }],
    expected: 'an object of its declared fields',
    shape(v, d, path, ctx) {
      if (!isPlainObject(v)) return false;
      ctx.walkObject(d.fields as FieldDeclaration[], v, path, []);
      return true;
    },
  },
  list: {
    options: { fields: fieldList, min: count(MAX_ITEMS), max: count(MAX_ITEMS) },
    requires: ['fields'],
    declare: (d) => minNotAboveMax(d),
    children: (d) => [{ path: '.fields', fields: d.fields as FieldDeclaration[] }],
    counts: () => true,
    expected: 'an array of objects of its declared fields, each with a _key',
    shape: (v, d, path, ctx) =>
      items(v, path, ctx, (item, at) => ctx.walkObject(d.fields as FieldDeclaration[], item, at, ['_key'])),
    rules: (v, d, path, ctx) => countRules((v as unknown[]).length, d, path, ctx, 'items'),
  },
  blocks: {
    options: {
      blocks(v) {
        if (!Array.isArray(v) || v.length < 1 || v.length > 50)
          return 'must be an array of 1 to 50 blocks { componentId, label?, fields }';
        const seen = new Set<string>();
        for (const [i, b] of v.entries()) {
          if (
            !isPlainObject(b) ||
            typeof b.componentId !== 'string' ||
            !/^[A-Za-z][A-Za-z0-9_-]{0,127}$/.test(b.componentId)
          )
            return `[${i}].componentId must be 1 to 128 characters of [A-Za-z0-9_-], starting with a letter`;
          if (!Array.isArray(b.fields)) return `[${i}].fields must be an array of field declarations`;
          if (Object.keys(b).some((k) => !['componentId', 'label', 'fields'].includes(k)))
            return `[${i}] takes only componentId, label and fields`;
          if (b.label !== undefined && (typeof b.label !== 'string' || codePoints(b.label) > 100))
            return `[${i}].label must be a string of at most 100 characters`;
          if (seen.has(b.componentId)) return `[${i}] repeats the componentId "${b.componentId}"`;
          seen.add(b.componentId);
        }
        return null;
      },
      min: count(MAX_ITEMS),
      max: count(MAX_ITEMS),
    },
    requires: ['blocks'],
    declare: (d) => minNotAboveMax(d),
    children: (d) => blocksOf(d).map((b, i) => ({ path: `.blocks[${i}].fields`, fields: b.fields })),
    counts: () => true,
    expected: (d) =>
      `an array of blocks { _key, _type, …fields } with _type among ${quoteList(blocksOf(d).map((b) => b.componentId))}`,
    shape: (v, d, path, ctx) =>
      items(v, path, ctx, (item, at) => {
        const block = blocksOf(d).find((b) => b.componentId === item._type);
        if (!block) {
          const types = quoteList(blocksOf(d).map((b) => b.componentId));
          return ctx.fail(`${at}._type`, `must be one of ${types}`);
        }
        ctx.walkObject(block.fields, item, at, ['_key', '_type']);
      }),
    rules: (v, d, path, ctx) => countRules((v as unknown[]).length, d, path, ctx, 'blocks'),
  },
};

export const specOf = (type: string): FieldTypeSpec | undefined =>
  ownOf(FIELD_TYPE_SPECS as Record<string, FieldTypeSpec>, type);

export const expectedOf = (spec: FieldTypeSpec, d: FieldDeclaration): string =>
  typeof spec.expected === 'string' ? spec.expected : spec.expected(d);

/** The options that are rules: stopped at publish, and not taken from a publishable key's added field (§17). */
export const RULE_OPTIONS = [
  'required',
  'min',
  'max',
  'minLength',
  'maxLength',
  'pattern',
  'integer',
] as const;
