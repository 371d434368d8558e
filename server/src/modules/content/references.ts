import type { Declarations } from '../definitions/index.js';
import { declaresReferences, mapReferences, OMIT, referencesIn } from '../definitions/index.js';
import type { Fields } from './content.service.js';

/**
 * Reference resolution (contract §13, §17): in place of an entry id the reader gets
 * `{ id, pageId, instanceKey, componentId, fields }` of that entry as this reader sees it, its own
 * references resolved the same way down to `depth` levels (0-3). Below that, or when the entry is
 * already on the chain above (a cycle, the page's own entry included), a reference is `{ id }`; one
 * the reader cannot see is `null` (single) or left out (multiple), and so is a stored value that is
 * no entry id (readerMap). At most MAX_RESOLVED distinct entries are resolved per answer; past that a
 * reference is `{ id }`.
 *
 * Two passes. First the targets are loaded level by level (one query per level, at most `depth`),
 * breadth first in walk order (field-references.ts): that order decides which entries fit the
 * budget. Then each root's fields are rebuilt depth first from what was loaded. The SDK's baked mode
 * (packages/sdk/src/references.ts) runs the same two passes over a snapshot, so a build gets what a
 * read gives. Rejected: resolving while walking (a query per reference), and a budget counted in the
 * depth-first order (the loads would have to follow it one reference at a time).
 */

export const MAX_DEPTH = 3;
export const DEFAULT_DEPTH = 1;
export const MAX_RESOLVED = 1000;

/** An entry as this reader sees it: `fields` null when it cannot (never published, unpublished). */
export interface ReferenceTarget {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  fields: Fields | null;
  declared: Declarations;
}

export interface ResolutionRoot {
  id: string;
  fields: Fields;
  declared: Declarations;
}

/** The entries of `ids` that exist in the project (visible or not), for this reader. */
export type LoadTargets = (ids: string[]) => Promise<ReferenceTarget[]>;

export interface Resolved {
  /** Each root's fields, resolved, in the order of the roots. */
  fields: Fields[];
  /** The pages of every entry read to resolve them (the answer changes when one of them does). */
  pages: Set<string>;
}

/** Whether any root declares references (else resolution is the identity and costs nothing). */
export const anyReferences = (roots: readonly ResolutionRoot[]): boolean =>
  roots.some((r) => declaresReferences(r.declared));

export async function resolveReferences(
  roots: readonly ResolutionRoot[],
  depth: number,
  load: LoadTargets,
): Promise<Resolved> {
  const pages = new Set<string>();
  if (depth === 0 || !anyReferences(roots)) {
    return { fields: roots.map((r) => (depth === 0 ? unresolved(r) : r.fields)), pages };
  }
  /** Every target looked up (a page's own entries too, when referenced): null when there is no such entry. */
  const known = new Map<string, ReferenceTarget | null>();
  /** Entries that will be resolved, in breadth-first discovery order (the budget). */
  const resolved = new Set<string>();
  let level: ResolutionRoot[] = [...roots];
  for (let d = 1; d <= depth && level.length > 0; d++) {
    const found: string[] = [];
    for (const entry of level)
      for (const { id } of referencesIn(entry.declared, entry.fields)) found.push(id);
    const missing = [...new Set(found)].filter((id) => !known.has(id));
    if (missing.length > 0) {
      const loaded = await load(missing);
      for (const id of missing) known.set(id, null);
      for (const t of loaded) {
        known.set(t.id, t);
        pages.add(t.pageId);
      }
    }
    const next: ResolutionRoot[] = [];
    for (const id of found) {
      if (resolved.has(id) || resolved.size >= MAX_RESOLVED) continue;
      const target = known.get(id);
      if (!target?.fields) continue;
      resolved.add(id);
      next.push({ id, fields: target.fields, declared: target.declared });
    }
    level = next;
  }

  const build = (fields: Fields, declared: Declarations, chain: string[]): Fields =>
    readerMap(declared, fields, (id) => {
      const target = known.get(id);
      if (chain.length > depth || chain.includes(id)) return { id };
      if (target === undefined) return { id };
      if (target === null || target.fields === null) return visibleNone;
      if (!resolved.has(id)) return { id };
      return {
        id,
        pageId: target.pageId,
        instanceKey: target.instanceKey,
        componentId: target.componentId,
        fields: build(target.fields, target.declared, [...chain, id]),
      };
    });
  return { fields: roots.map((r) => build(r.fields, r.declared, [r.id])), pages };
}

/** Marks an invisible target: null in a single reference, left out of a multiple one. */
const visibleNone = OMIT;

/** Depth 0: every reference is `{ id }` (nothing is looked up). */
const unresolved = (r: ResolutionRoot): Fields => readerMap(r.declared, r.fields, (id) => ({ id }));

/**
 * mapReferences as readers get it: a stored value that is no entry id (an object where an id belongs,
 * stored before §23 checked every item, or kept when a field became a reference) is left out, null in
 * a single reference, never passed on looking like a resolved one.
 */
const readerMap = (declared: Declarations, fields: Fields, visit: (id: string) => unknown): Fields =>
  mapReferences(declared, fields, visit, OMIT);
