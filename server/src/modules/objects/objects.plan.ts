import type { Static } from 'typebox';
import { byCodeUnits } from '../../shared/canonical.js';
import { type FieldProblem, validationFailed } from '../../shared/errors.js';
import { LIMITS } from './objects.limits.js';
import type { SaveBody } from './objects.schemas.js';

/**
 * Turns a validated save request into the rows to write: fields flattened to dotted paths, values
 * as JSON text, objects de-duplicated and sorted. Pure, so the rules the schema cannot express
 * (nesting, paths, sizes, duplicates) are checked before any transaction opens.
 */
export type SaveInput = Static<typeof SaveBody>;

export interface PlannedObject {
  type: string;
  id: string;
  published: boolean;
  fields: { path: string; value: string }[];
  collections: { name: string; items: { itemId: string; value: string }[] }[];
}

export interface SavePlan {
  status: 'draft' | 'published' | 'mixed';
  /** Sorted by (type, id): concurrent saves then lock the same objects in the same order. */
  objects: PlannedObject[];
}

const MAX_PROBLEMS = 20;
/** Nesting allowed inside an item value. */
const ITEM_VALUE_DEPTH = 16;

/** Text both databases store as sent: PostgreSQL text cannot hold NUL, nor JSON a lone surrogate. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
const CONTROL = /[\u0000-\u001f]/;
const storableText = (s: string): boolean => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

/** Problem with an item value's nesting or strings, or null when it can be stored. */
function itemValueProblem(value: unknown, depth = 0): string | null {
  if (typeof value === 'string')
    return storableText(value) ? null : 'strings cannot contain NUL or lone surrogates';
  if (value === null || typeof value !== 'object') return null;
  if (depth >= ITEM_VALUE_DEPTH) return `nests deeper than ${ITEM_VALUE_DEPTH} levels`;
  for (const [k, v] of Object.entries(value)) {
    const problem = storableText(k)
      ? itemValueProblem(v, depth + 1)
      : 'keys cannot contain NUL or lone surrogates';
    if (problem) return problem;
  }
  return null;
}

export function planSave(input: SaveInput): SavePlan {
  const problems: FieldProblem[] = [];
  const problem = (path: string, message: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ path, message });
  };
  const seen = new Set<string>();
  const objects: PlannedObject[] = [];
  const statuses = new Set<string>();

  input.objects.forEach((o, i) => {
    const at = `body.objects[${i}]`;
    const key = `${o.type}\u0000${o.id}`;
    if (seen.has(key)) problem(at, `object ${o.type}/${o.id} appears twice in one save`);
    if (!storableText(o.id)) problem(`${at}.id`, 'cannot contain lone surrogates');
    seen.add(key);
    const status = o.status ?? input.status ?? 'draft';
    statuses.add(status);

    const fields: PlannedObject['fields'] = [];
    const paths = new Set<string>();
    const visit = (value: unknown, path: string, depth: number, where: string): void => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        if (depth >= LIMITS.flattenDepth) {
          problem(where, `nests deeper than ${LIMITS.flattenDepth} levels`);
          return;
        }
        for (const [k, v] of Object.entries(value)) {
          if (k === '' || CONTROL.test(k) || !storableText(k)) {
            problem(`${where}.${k}`, 'field names must be non-empty, without control characters');
            continue;
          }
          visit(v, path ? `${path}.${k}` : k, depth + 1, `${where}.${k}`);
        }
        return;
      }
      if (Array.isArray(value)) {
        problem(where, 'arrays are not field values; send lists as collections');
        return;
      }
      if (typeof value === 'string' && value.length > LIMITS.valueLength) {
        problem(where, `string values are limited to ${LIMITS.valueLength} characters`);
        return;
      }
      if (typeof value === 'string' && !storableText(value)) {
        problem(where, 'strings cannot contain NUL or lone surrogates');
        return;
      }
      if (typeof value === 'number' && !Number.isFinite(value)) {
        problem(where, 'numbers must be finite');
        return;
      }
      if (!['string', 'number', 'boolean'].includes(typeof value) && value !== null) {
        problem(where, 'must be a string, number, boolean, null or a plain object');
        return;
      }
      if (path.length > LIMITS.pathLength) {
        problem(where, `field paths are limited to ${LIMITS.pathLength} characters`);
        return;
      }
      if (paths.has(path)) {
        problem(where, `field path "${path}" is given twice`);
        return;
      }
      paths.add(path);
      fields.push({ path, value: JSON.stringify(value) });
    };
    if (o.fields) visit(o.fields, '', 0, `${at}.fields`);
    if (fields.length > LIMITS.fieldsPerObject) {
      problem(`${at}.fields`, `an object has at most ${LIMITS.fieldsPerObject} fields after flattening`);
    }

    const collections: PlannedObject['collections'] = [];
    for (const [name, items] of Object.entries(o.collections ?? {})) {
      const where = `${at}.collections.${name}`;
      if (name === '' || name.length > LIMITS.pathLength || CONTROL.test(name) || !storableText(name)) {
        problem(
          where,
          `collection names are 1 to ${LIMITS.pathLength} characters, without control characters`,
        );
        continue;
      }
      const itemIds = new Set<string>();
      const planned = items.map((item, j) => {
        if (itemIds.has(item.itemId)) problem(`${where}[${j}].itemId`, `item "${item.itemId}" appears twice`);
        if (!storableText(item.itemId)) problem(`${where}[${j}].itemId`, 'cannot contain lone surrogates');
        itemIds.add(item.itemId);
        const bad = itemValueProblem(item.value);
        if (bad) {
          problem(`${where}[${j}].value`, bad);
          return { itemId: item.itemId, value: '' };
        }
        const value = JSON.stringify(item.value);
        if (value.length > LIMITS.valueLength) {
          problem(
            `${where}[${j}].value`,
            `item values are limited to ${LIMITS.valueLength} characters of JSON`,
          );
        }
        return { itemId: item.itemId, value };
      });
      collections.push({ name, items: planned });
    }

    objects.push({ type: o.type, id: o.id, published: status === 'published', fields, collections });
  });

  if (problems.length > 0) throw validationFailed('The objects are not valid.', problems);
  objects.sort((a, b) => byCodeUnits(a.type, b.type) || byCodeUnits(a.id, b.id));
  const status = statuses.size > 1 ? 'mixed' : statuses.has('published') ? 'published' : 'draft';
  return { status, objects };
}
