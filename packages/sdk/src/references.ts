import type { FieldDefinition } from './fields.js';
import type { PageEntry, Snapshot } from './types.js';

/**
 * Baked mode's reference resolution (contract §13, §17, §23): a snapshot keeps stored entry ids, and
 * a build resolves them itself to get what `GET /v1/content/:pageId` gives a visitor. It spends the
 * same budget in the same order as the server (server/src/modules/content/references.ts), so the
 * answers are equal: occurrences breadth first (the page's references in walk order, fields in
 * declaration order then item order; then the references inside those resolved, in the order they
 * were), at most 1,000 of them and MAX_BYTES of JSON, each costing its `{ id, pageId, instanceKey,
 * componentId, fields }` with its own references as `{ id }`. The 1,000th, or the first that does not
 * fit, ends it. Below `depth`, on a cycle (the page's own entry included) and past the budget a
 * reference is `{ id }`; a target the snapshot does not hold (not published, deleted), or a stored
 * value that is no entry id (§23), is `null` (single) or left out (multiple). MAX_BYTES is the server's default CMS_RESOLVE_MAX_BYTES: a build
 * against a server configured otherwise may resolve more or less than its reads.
 *
 * The snapshot carries no declarations: which fields are references is known from the components
 * the site declares (`createFolio({ components })` and `register`), by componentId. An entry whose
 * component the site did not declare is served with its stored values.
 */

export const MAX_RESOLVED = 1000;
export const MAX_BYTES = 5 * 1024 * 1024;

/** Declarations by componentId. */
export type Declared = ReadonlyMap<string, readonly FieldDefinition[]>;
type Fields = Record<string, unknown>;
type Visit = (id: string) => unknown;

const ENTRY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;
const OMIT = Symbol('omit');
const isId = (v: unknown): v is string => typeof v === 'string' && ENTRY_ID.test(v);
const own = Object.hasOwn;
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

function mapValue(d: FieldDefinition, value: unknown, visit: Visit): unknown {
  switch (d.type) {
    case 'reference': {
      // A stored value that is no entry id (an object kept when a json field became a reference, a
      // number) is left out as the server's reads leave it out: it never passes for a resolved one.
      if (isId(value)) return visit(value);
      return Array.isArray(value)
        ? value
            .filter(isId)
            .map(visit)
            .filter((m) => m !== OMIT)
        : OMIT;
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
    const v = own(value, d.key) ? value[d.key] : undefined;
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
  const roots = own(snapshot.content, pageId) ? (snapshot.content[pageId] ?? []) : [];
  if (declared.size === 0) return roots;
  const walk = (entry: { componentId: string; fields: Fields }, visit: Visit) =>
    mapObject(declared.get(entry.componentId) ?? [], entry.fields, visit);

  // Every entry of the snapshot by id (built once per snapshot and page read; a build reads each page once).
  const byId = new Map<string, Held>();
  for (const [page, entries] of Object.entries(snapshot.content))
    for (const { id, instanceKey, componentId, fields } of entries)
      if (id) byId.set(id, { id, pageId: page, instanceKey, componentId, fields });

  // Occurrences level by level: each is rebuilt in place (`fields`), and those it resolves are the next level.
  let left = MAX_RESOLVED;
  let room = MAX_BYTES;
  const out = roots.map((e) => ({ ...e }));
  let level = out.map((e) => ({ e, chain: [e.id ?? ''] }));
  for (let d = 0; d <= depth; d++) {
    const next: typeof level = [];
    for (const { e, chain } of level)
      e.fields = walk(e, (id) => {
        if (d === depth || !left || chain.includes(id)) return { id };
        const target = byId.get(id);
        if (!target) return OMIT;
        // A copy per occurrence: its `fields` are rebuilt at the next level.
        const held = { ...target };
        // What this copy sends with its own references as `{ id }` (a further resolved one pays for itself).
        const cost = new Blob([JSON.stringify({ ...held, fields: walk(held, (i) => ({ id: i })) })]).size;
        if (cost > room) {
          left = 0;
          return { id };
        }
        left--;
        room -= cost;
        next.push({ e: held, chain: [...chain, id] });
        return held;
      });
    level = next;
  }
  return out;
}
