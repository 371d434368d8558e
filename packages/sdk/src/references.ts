import type { FieldDefinition } from './fields.js';
import type { PageEntry, Snapshot } from './types.js';

/**
 * Baked mode's reference resolution (contract §13, §17): a snapshot keeps stored entry ids, and a
 * build resolves them itself to get what `GET /v1/content/:pageId` gives a visitor. The same two
 * passes as the server's (server/src/modules/content/references.ts), so the answers are equal:
 * targets are found breadth first, level by level, in walk order (fields in declaration order, then
 * item order), which decides the 1,000 entries one answer resolves; then each entry is rebuilt depth
 * first. Below `depth`, on a cycle (the page's own entry included) and past the budget a reference
 * is `{ id }`; a target the snapshot does not hold (not published, deleted), or a stored value that is
 * no entry id (contract §23), is `null` (single) or left out (multiple).
 *
 * The snapshot carries no declarations: which fields are references is known from the components
 * the site declares (`createFolio({ components })` and `register`), by componentId. An entry whose
 * component the site did not declare is served with its stored values.
 */

export const MAX_RESOLVED = 1000;

/** Declarations by componentId. */
export type Declared = ReadonlyMap<string, readonly FieldDefinition[]>;
type Fields = Record<string, unknown>;
type Visit = (id: string) => unknown;

const ENTRY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;
const OMIT = Symbol('omit');
const isId = (v: unknown): v is string => typeof v === 'string' && ENTRY_ID.test(v);
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

function mapValue(d: FieldDefinition, value: unknown, visit: Visit): unknown {
  switch (d.type) {
    case 'reference': {
      // A stored value that is no entry id (an object kept when a json field became a reference, a
      // number) is left out as the server's reads leave it out: it never passes for a resolved one.
      if (isId(value)) return visit(value);
      if (!Array.isArray(value)) return OMIT;
      const out: unknown[] = [];
      for (const id of value) {
        const mapped = isId(id) ? visit(id) : OMIT;
        if (mapped !== OMIT) out.push(mapped);
      }
      return out;
    }
    case 'object':
      return isObject(value) ? mapObject(d.fields, value, visit) : value;
    case 'list':
      return Array.isArray(value)
        ? value.map((item) => (isObject(item) ? mapObject(d.fields, item, visit) : item))
        : value;
    case 'blocks':
      return Array.isArray(value)
        ? value.map((item) => {
            const block = isObject(item) ? d.blocks.find((b) => b.componentId === item._type) : undefined;
            return block ? mapObject(block.fields, item as Fields, visit) : item;
          })
        : value;
    default:
      return value;
  }
}

function mapObject(declared: readonly FieldDefinition[], value: Fields, visit: Visit): Fields {
  let out: Fields | null = null;
  for (const d of declared) {
    // Own keys only (contract §23): a field named `constructor` must not find Object's.
    const v = Object.hasOwn(value, d.key) ? value[d.key] : undefined;
    if (v === undefined || v === null) continue;
    const mapped = mapValue(d, v, visit);
    if (mapped === v) continue;
    out ??= { ...value };
    out[d.key] = mapped === OMIT ? null : mapped;
  }
  return out ?? value;
}

interface Held {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  fields: Fields;
}

/** The page's entries with references resolved from the snapshot, down to `depth` (0-3). */
export function resolveBaked(
  snapshot: Snapshot,
  pageId: string,
  depth: number,
  declared: Declared,
): PageEntry[] {
  // A page id is data too: `constructor` (a valid id) must not find Object's member.
  const roots = Object.hasOwn(snapshot.content, pageId) ? (snapshot.content[pageId] ?? []) : [];
  if (declared.size === 0) return roots;
  const fieldsOf = (componentId: string) => declared.get(componentId) ?? [];
  const walk = (entry: { componentId: string; fields: Fields }, visit: Visit) =>
    mapObject(fieldsOf(entry.componentId), entry.fields, visit);

  // Every entry of the snapshot by id (built once per snapshot and page read; a build reads each page once).
  const byId = new Map<string, Held>();
  for (const [page, entries] of Object.entries(snapshot.content))
    for (const e of entries) if (e.id) byId.set(e.id, { ...e, id: e.id, pageId: page });

  const resolved = new Set<string>();
  let level: { componentId: string; fields: Fields }[] = roots;
  for (let d = 1; d <= depth && level.length > 0; d++) {
    const found: string[] = [];
    for (const entry of level)
      walk(entry, (id) => {
        found.push(id);
        return id;
      });
    const next: Held[] = [];
    for (const id of found) {
      if (resolved.has(id) || resolved.size >= MAX_RESOLVED) continue;
      const target = byId.get(id);
      if (!target) continue;
      resolved.add(id);
      next.push(target);
    }
    level = next;
  }

  const build = (entry: { componentId: string; fields: Fields }, chain: string[]): Fields =>
    walk(entry, (id) => {
      if (chain.length > depth || chain.includes(id)) return { id };
      const target = byId.get(id);
      if (!target) return OMIT;
      if (!resolved.has(id)) return { id };
      const { pageId: page, instanceKey, componentId } = target;
      return { id, pageId: page, instanceKey, componentId, fields: build(target, [...chain, id]) };
    });
  return roots.map((e) => {
    const fields = build(e, [e.id ?? '']);
    return fields === e.fields ? e : { ...e, fields };
  });
}
