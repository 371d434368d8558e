import { ENTRY_ID, isPlainObject, ownOf } from './field-checks.js';
import type { FieldDeclaration } from './field-types.js';
import type { Declarations } from './field-values.js';

/**
 * Where the `reference` values of an entry are (contract §13): the one walk over declarations and
 * values that resolution, `GET /v1/content/:entryId/references` and the deletion check share. It
 * follows the containers (`object`, `list`, `blocks`) into their declared fields, in declaration
 * order and then item order, so every reader of references meets them in the same order (the SDK's
 * baked mode walks the same way: packages/sdk/src/references.ts). A value of the wrong shape (stored
 * before its declaration changed, §17, or before every item was checked, §23) is never visited: it is
 * left as it is, or, for readers that resolve (`misfit: OMIT`), left out: an object stored where an
 * id belongs must not reach a visitor looking like a resolved reference.
 */

/** What a visitor returns for a reference: its replacement, or OMIT to leave it out of a multiple one. */
export const OMIT = Symbol('omit');
export type ReferenceVisitor = (id: string, path: string) => unknown;
/** What a reference value that is not an entry id becomes: KEEP (as stored) or OMIT (null / left out). */
export const KEEP = Symbol('keep');
export type Misfit = typeof KEEP | typeof OMIT;

const withReferences = new WeakMap<object, boolean>();

/** Whether any declaration, at any depth, is a `reference` (a project without references skips every walk). */
export function declaresReferences(declared: Declarations): boolean {
  let known = withReferences.get(declared);
  if (known === undefined) {
    known = JSON.stringify([...declared.values()]).includes('"type":"reference"');
    withReferences.set(declared, known);
  }
  return known;
}

const isId = (v: unknown): v is string => typeof v === 'string' && ENTRY_ID.test(v);

function mapValue(
  d: FieldDeclaration,
  value: unknown,
  path: string,
  visit: ReferenceVisitor,
  misfit: Misfit,
): unknown {
  switch (d.type) {
    case 'reference': {
      if (isId(value)) return visit(value, path);
      // Ids are followed whether the field is multiple now or not (a stored id is a real reference
      // either way); anything else (an object in a field that was json, a number) is a misfit.
      if (!Array.isArray(value)) return misfit === KEEP ? value : OMIT;
      const out: unknown[] = [];
      value.forEach((id, i) => {
        const mapped = isId(id) ? visit(id, `${path}[${i}]`) : misfit === KEEP ? id : OMIT;
        if (mapped !== OMIT) out.push(mapped);
      });
      return out;
    }
    case 'object':
      return isPlainObject(value)
        ? mapObject(d.fields as FieldDeclaration[], value, path, visit, misfit)
        : value;
    case 'list':
      return Array.isArray(value)
        ? value.map((item, i) =>
            isPlainObject(item)
              ? mapObject(d.fields as FieldDeclaration[], item, `${path}[${i}]`, visit, misfit)
              : item,
          )
        : value;
    case 'blocks': {
      if (!Array.isArray(value)) return value;
      const blocks = (d.blocks ?? []) as { componentId: string; fields: FieldDeclaration[] }[];
      return value.map((item, i) => {
        const block = isPlainObject(item) ? blocks.find((b) => b.componentId === item._type) : undefined;
        return block
          ? mapObject(block.fields, item as Record<string, unknown>, `${path}[${i}]`, visit, misfit)
          : item;
      });
    }
    default:
      return value;
  }
}

function mapObject(
  fields: Iterable<FieldDeclaration>,
  value: Record<string, unknown>,
  path: string,
  visit: ReferenceVisitor,
  misfit: Misfit,
): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const d of fields) {
    const v = ownOf(value, d.key); // a field named `constructor` must not find Object's (§23)
    if (v === undefined || v === null) continue;
    const mapped = mapValue(d, v, `${path}.${d.key}`, visit, misfit);
    if (mapped === v) continue;
    out ??= { ...value };
    out[d.key] = mapped === OMIT ? null : mapped;
  }
  return out ?? value;
}

/**
 * The fields with each reference replaced by what `visit(id, path)` returns (paths as in `problems`:
 * `fields.items[1].ref`). A copy where something changed; the same object where nothing did. A
 * reference value that is not an entry id is kept as stored (`misfit` KEEP: editors' copies, where
 * it is a problem to fix) or left out (OMIT: null in a single reference, dropped from a multiple one).
 */
export function mapReferences(
  declared: Declarations,
  fields: Record<string, unknown>,
  visit: ReferenceVisitor,
  misfit: Misfit = KEEP,
): Record<string, unknown> {
  if (!declaresReferences(declared)) return fields;
  return mapObject(declared.values(), fields, 'fields', visit, misfit);
}

/** Every reference of `fields` with its path, in walk order. */
export function referencesIn(
  declared: Declarations,
  fields: Record<string, unknown>,
): { id: string; path: string }[] {
  const found: { id: string; path: string }[] = [];
  mapReferences(declared, fields, (id, path) => {
    found.push({ id, path });
    return id;
  });
  return found;
}
