import { randomInt } from 'node:crypto';
import { BoundedMemo } from '../../shared/bounded-memo.js';
import type { FieldProblem } from '../../shared/errors.js';
import {
  expectedOf,
  type FieldDeclaration,
  type FieldTypeSpec,
  ownOf,
  specOf,
  type ValueContext,
} from './field-types.js';
import { RuleBudget } from './rule-budget.js';

/**
 * Applies the field types (field-types.ts) to an entry's values: the shape of what a write brings
 * (400, contract §13) and, at publish, the shape and rules of the whole working copy (422). One walk
 * serves both, so a container checks its items the same way in either phase.
 */

/** An entry's top-level declarations by key (none: an empty map). */
export type Declarations = ReadonlyMap<string, FieldDeclaration>;

const NO_DECLARATIONS: Declarations = new Map();
/**
 * Parsed declarations by their stored JSON: a page's entries share few definitions, and every write
 * reads one. Bounded by bytes too: a component's declarations reach 64 KB of JSON (limits.ts), kept
 * as the key and again as objects, so 500 of them could hold ~100 MB; 16 MB is hundreds of typical
 * definitions (a few hundred bytes to a few KB each).
 */
const parsed = new BoundedMemo<Declarations>(500, 16 * 1024 * 1024);
/** Bytes of a parsed definition, key included: its JSON as a string (up to 2 bytes a unit) and as objects (~2x). */
const parsedBytes = (json: string) => json.length * 4 + 200;

/** The declarations of a definition's `fields` column (null: no definition). */
export function declarationsOf(definitionFields: string | null): Declarations {
  if (!definitionFields) return NO_DECLARATIONS;
  let known = parsed.get(definitionFields);
  if (!known) {
    const fields = JSON.parse(definitionFields) as FieldDeclaration[];
    known = new Map(fields.map((f) => [f.key, f]));
    parsed.set(definitionFields, known, parsedBytes(definitionFields));
  }
  return known;
}

/** Whether a declared value holds nested fields (object, list, blocks): its size is bounded by the entry's. */
export const holdsItems = (d: FieldDeclaration | undefined): boolean =>
  d !== undefined && specOf(d.type)?.children !== undefined;

/** A `link` to a page of this project: whether the page exists is one query for all of them. */
export interface PageLink {
  path: string;
  pageId: string;
}

/** A reference id written, for the check of its target (issue 34 item 4 plugs in there). */
export interface ReferenceWritten {
  path: string;
  id: string;
  componentIds: string[] | undefined;
}

export interface ValueReport {
  problems: FieldProblem[];
  links: PageLink[];
  references: ReferenceWritten[];
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A `_key` the server assigns (§17): 12 random characters of [A-Za-z0-9]. */
export function newItemKey(): string {
  let key = '';
  for (let i = 0; i < 12; i++) key += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return key;
}
const ITEM_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** Empty as the rules see it (§13): missing, null or "", and [] for a value that counts items. */
function isEmpty(value: unknown, spec: FieldTypeSpec, d: FieldDeclaration): boolean {
  if (value === undefined || value === null || value === '') return true;
  return Array.isArray(value) && value.length === 0 && spec.counts?.(d) === true;
}

function context(phase: ValueContext['phase'], report: ValueReport, budget: RuleBudget): ValueContext {
  const ctx: ValueContext = {
    phase,
    budget,
    fail: (path, message) => {
      report.problems.push({ path, message });
    },
    walkObject(fields, value, path, allowed) {
      const declared = new Set(fields.map((f) => f.key));
      for (const key of Object.keys(value)) {
        if (!declared.has(key) && !allowed.includes(key))
          ctx.fail(`${path}.${key}`, 'is not a declared field');
      }
      for (const f of fields) checkValue(f, ownOf(value, f.key), `${path}.${f.key}`, ctx);
    },
    itemKey(item, path, seen) {
      if (item._key === undefined) {
        if (phase === 'publish') return ctx.fail(`${path}._key`, 'is missing');
        item._key = newItemKey();
      }
      const key = item._key;
      if (typeof key !== 'string' || !ITEM_KEY.test(key)) {
        return ctx.fail(`${path}._key`, 'must be 1 to 64 characters of [A-Za-z0-9_-]');
      }
      if (seen.has(key))
        ctx.fail(`${path}._key`, `repeats "${key}": each item's _key is distinct in its array`);
      seen.add(key);
    },
    linkedPage: (path, pageId) => {
      report.links.push({ path, pageId });
    },
    referenced: (path, id, d) => {
      report.references.push({ path, id, componentIds: d.componentIds as string[] | undefined });
    },
  };
  return ctx;
}

/** Checks one value against its declaration, reporting through `ctx`. */
function checkValue(d: FieldDeclaration, value: unknown, path: string, ctx: ValueContext): void {
  const spec = specOf(d.type);
  if (!spec) return; // never stored: declarations are checked at sync
  if (ctx.phase === 'publish' && isEmpty(value, spec, d)) {
    if (d.required === true) ctx.fail(path, 'is required');
    else if (spec.counts?.(d) && typeof d.min === 'number' && d.min > 0)
      ctx.fail(path, `must have at least ${d.min}`);
    return;
  }
  if (value === undefined || value === null) return;
  const report = { before: 0 };
  const probe: ValueContext = {
    ...ctx,
    fail: (p, m) => {
      report.before += 1;
      ctx.fail(p, m);
    },
  };
  if (!spec.shape(value, d, path, probe)) {
    ctx.fail(path, `must be ${expectedOf(spec, d)} (field type "${d.type}")`);
    return;
  }
  if (ctx.phase === 'publish' && report.before === 0) spec.rules?.(value, d, path, ctx);
}

/**
 * The shape of what a write brings (§17: judged on what the write introduces): each sent value of a
 * declared key, `null`s aside (they remove the key). `_key`s missing from list items and blocks are
 * assigned in place. Undeclared top-level keys are accepted as part one did.
 */
export function checkWrite(
  declared: Declarations,
  values: Record<string, unknown>,
  prefix: string,
): ValueReport {
  const report: ValueReport = { problems: [], links: [], references: [] };
  // Shapes only: no rule runs, so nothing may be drawn (a budget of 0 refuses any pattern).
  const ctx = context('write', report, new RuleBudget(0));
  for (const [key, value] of Object.entries(values)) {
    const d = declared.get(key);
    if (d && value !== null) checkValue(d, value, `${prefix}.${key}`, ctx);
  }
  return report;
}

/**
 * What would stop a publish of `fields` (§13): every declared field's shape and rules, on the whole
 * copy, patterns within `budget` (the request's; contract §23). `links` still need their pages looked
 * up (content does it, one query for many entries). A stored copy's report: publishReport (memoised).
 */
export function checkPublish(
  declared: Declarations,
  fields: Record<string, unknown>,
  budget: RuleBudget = new RuleBudget(),
): ValueReport {
  const report: ValueReport = { problems: [], links: [], references: [] };
  const ctx = context('publish', report, budget);
  for (const d of declared.values()) checkValue(d, ownOf(fields, d.key), `fields.${d.key}`, ctx);
  return report;
}

/**
 * A declaration's `default` (§13): it must fit the field's shape and rules, patterns within the
 * sync's `budget` (contract §23). List items and blocks get their `_key`s here, once, so every stub
 * made from it holds the same items.
 */
export function checkDefault(
  d: FieldDeclaration,
  value: unknown,
  path: string,
  budget: RuleBudget,
): FieldProblem[] {
  const report: ValueReport = { problems: [], links: [], references: [] };
  checkValue(d, value, path, context('write', report, budget));
  if (report.problems.length === 0) checkValue(d, value, path, context('publish', report, budget));
  return report.problems;
}
