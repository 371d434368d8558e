import { ENTRY_ID, isPlainObject, ownOf } from './field-checks.js';
import type { FieldDeclaration } from './field-types.js';
import type { Declarations } from './field-values.js';

/**
 * Where the `reference` values of an entry are (contract §13): the one walk over declarations and
 * values that resolution, `GET /v1/content/:entryId/references` and the deletion check share. It
 * follows the containers (`object`, `list`, `blocks`) into their declared fields, in declaration
 * order and then item order, so every reader of references meets them in the same order (the SDK's
 * baked mode walks the same way: packages/sdk/src/references.ts). A value of the wrong shape (stored
 * before its declaration changed, §17) is left as it is.
 */

/** What a visitor returns for a reference: its replacement, or OMIT to leave it out of a multiple one. */
export const OMIT = Symbol('omit');
export type ReferenceVisitor = (id: string, path: string) => unknown;

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

function mapValue(d: FieldDeclaration, value: unknown, path: string, visit: ReferenceVisitor): unknown {
  switch (d.type) {
    case 'reference': {
      if (typeof value === 'string') return ENTRY_ID.test(value) ? visit(value, path) : value;
      if (!Array.isArray(value)) return value;
      const out: unknown[] = [];
      value.forEach((id, i) => {
        const mapped = typeof id === 'string' && ENTRY_ID.test(id) ? visit(id, `${path}[${i}]`) : id;
        if (mapped !== OMIT) out.push(mapped);
      });
      return out;
    }
    case 'object':
      return isPlainObject(value) ? mapObject(d.fields as FieldDeclaration[], value, path, visit) : value;
    case 'list':
      return Array.isArray(value)
        ? value.map((item, i) =>
            isPlainObject(item)
              ? mapObject(d.fields as FieldDeclaration[], item, `${path}[${i}]`, visit)
              : item,
          )
        : value;
    case 'blocks': {
      if (!Array.isArray(value)) return value;
      const blocks = (d.blocks ?? []) as { componentId: string; fields: FieldDeclaration[] }[];
      return value.map((item, i) => {
        const block = isPlainObject(item) ? blocks.find((b) => b.componentId === item._type) : undefined;
        return block
          ? mapObject(block.fields, item as Record<string, unknown>, `${path}[${i}]`, visit)
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
): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const d of fields) {
    const v = ownOf(value, d.key); // a field named `constructor` must not find Object's (§23)
    if (v === undefined || v === null) continue;
    const mapped = mapValue(d, v, `${path}.${d.key}`, visit);
    if (mapped === v) continue;
    out ??= { ...value };
    out[d.key] = mapped === OMIT ? null : mapped;
  }
  return out ?? value;
}

/**
 * The fields with each reference replaced by what `visit(id, path)` returns (paths as in `problems`:
 * `fields.items[1].ref`). A copy where something changed; the same object where nothing did.
 */
export function mapReferences(
  declared: Declarations,
  fields: Record<string, unknown>,
  visit: ReferenceVisitor,
): Record<string, unknown> {
  if (!declaresReferences(declared)) return fields;
  return mapObject(declared.values(), fields, 'fields', visit);
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
