import type { Declarations } from '../definitions/index.js';
import { declaresReferences, mapReferences, OMIT } from '../definitions/index.js';
import type { Fields } from './content.service.js';

/**
 * Reference resolution (contract §13, §17, §23): in place of an entry id the reader gets
 * `{ id, pageId, instanceKey, componentId, fields }` of that entry as this reader sees it, its own
 * references resolved the same way down to `depth` levels (0-3). Below that, or when the entry is
 * already on the chain above (a cycle, the page's own entry included), a reference is `{ id }`; one
 * the reader cannot see is `null` (single) or left out (multiple), and so is a stored value that is
 * no entry id (readerMap).
 *
 * The budget (§23, "references cost what they send"): one answer resolves at most MAX_RESOLVED
 * occurrences (the same entry referred to twice counts twice: each occurrence is a copy that is
 * sent) holding at most `maxBytes` (CMS_RESOLVE_MAX_BYTES) of JSON. It is spent breadth first over
 * occurrences: the roots' references in page order and walk order (field-references.ts), then the
 * references inside those resolved, in the order they were resolved, and so on down. The first
 * reference that does not fit, or the 1,000th resolved, ends resolution: every reference after it in
 * that order (and the one that did not fit) reads `{ id }`; nothing more is looked up, so nor is
 * whether the reader could see it. Each occurrence
 * costs the JSON it adds, counted without serialising anything (costOf): its entry's stored fields
 * as loaded (ReferenceTarget.bytes), 7 bytes per reference inside them (`"ent_…"` becomes
 * `{"id":"ent_…"}`; a reference resolved further is paid for by its own occurrence) and its
 * `id`, `pageId`, `instanceKey` and `componentId`. So no read builds more than the budget, whatever
 * the shape of the references (a fan of 1,000 x 1,000 occurrences, 1,000 copies of one 1 MB entry).
 *
 * One pass, level by level: each level's targets are loaded in walk order, CHUNK ids per query and
 * only while the budget lasts, then each occurrence of the level is rebuilt and the ones it resolves
 * are the next level. The SDK's baked mode (packages/sdk/src/references.ts) spends the same budget
 * in the same order over a snapshot, so a build gets what a read gives. Rejected: the former two
 * passes (distinct entries found breadth first, then copies made depth first at every occurrence:
 * 1,000 x 1,000 copies for a budget of 1,000 entries), a query per reference, and measuring by
 * stringifying while building (the cost would be paid before it is refused).
 */

export const MAX_DEPTH = 3;
export const DEFAULT_DEPTH = 1;
/** Resolved occurrences per answer (contract §17, §23). */
export const MAX_RESOLVED = 1000;
/** CMS_RESOLVE_MAX_BYTES's default: the contract's 5 MB, as 5 MiB like the other byte limits (config.ts). */
export const DEFAULT_RESOLVE_MAX_BYTES = 5 * 1024 * 1024;
/**
 * Targets loaded per query. Loading stops once the budget is spent, so a read holds at most one
 * chunk beyond what it resolves (at most 50 entries of 1 MB, not every target of a fan); a page with
 * more references makes one query per 50 of them per level.
 */
const CHUNK = 50;

/** An entry as this reader sees it: `fields` null when it cannot (never published, unpublished). */
export interface ReferenceTarget {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  fields: Fields | null;
  /** UTF-8 bytes of `fields` as compact JSON (its stored text's, as loaded); 0 when null. */
  bytes: number;
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

/** A root or a resolved occurrence, whose references are mapped at the next level. */
interface Occurrence {
  fields: Fields;
  declared: Declarations;
  /** The entries from the root down to this one (a reference to one of them is a cycle). */
  chain: string[];
  /** The ids it refers to, in walk order. */
  ids: string[];
  /** Where its mapped fields go. */
  set: (fields: Fields) => void;
}

/** What a reference of an occurrence becomes: its target (resolved), `{ id }` or left out. */
type Plan = ReferenceTarget | typeof STUB | typeof OMIT;
const STUB = Symbol('stub');

/** The ids `fields` refers to, in walk order. */
function idsIn(declared: Declarations, fields: Fields): string[] {
  const ids: string[] = [];
  mapReferences(declared, fields, (id) => {
    ids.push(id);
    return id;
  });
  return ids;
}

export async function resolveReferences(
  roots: readonly ResolutionRoot[],
  depth: number,
  load: LoadTargets,
  /** CMS_RESOLVE_MAX_BYTES. */
  maxBytes = DEFAULT_RESOLVE_MAX_BYTES,
): Promise<Resolved> {
  const pages = new Set<string>();
  if (depth === 0 || !anyReferences(roots)) {
    return { fields: roots.map((r) => (depth === 0 ? unresolved(r) : r.fields)), pages };
  }
  /** Every target looked up: null when there is no such entry. */
  const known = new Map<string, ReferenceTarget | null>();
  const ids = new Map<string, string[]>();
  const costs = new Map<string, number>();
  const idsOf = (t: ReferenceTarget & { fields: Fields }): string[] => {
    let found = ids.get(t.id);
    if (!found) {
      found = idsIn(t.declared, t.fields);
      ids.set(t.id, found);
    }
    return found;
  };
  const costOf = (t: ReferenceTarget & { fields: Fields }): number => {
    let cost = costs.get(t.id);
    if (cost === undefined) {
      const q = JSON.stringify;
      const envelope = `{"id":${q(t.id)},"pageId":${q(t.pageId)},"instanceKey":${q(t.instanceKey)},"componentId":${q(t.componentId)},"fields":}`;
      cost = Buffer.byteLength(envelope) + t.bytes + 7 * idsOf(t).length;
      costs.set(t.id, cost);
    }
    return cost;
  };
  /** Occurrences still allowed: 0 once spent, by count or at the first that does not fit in `room`. */
  let left = MAX_RESOLVED;
  let room = maxBytes;

  /** Loads the target of level[n].ids[i] and the next unknown ones of the level after it (CHUNK ids). */
  const loadFrom = async (level: Occurrence[], n: number, i: number) => {
    const batch = new Set<string>();
    for (let m = n; m < level.length && batch.size < CHUNK; m++) {
      const those = (level[m] as Occurrence).ids;
      for (let j = m === n ? i : 0; j < those.length && batch.size < CHUNK; j++) {
        const id = those[j] as string;
        if (!known.has(id)) batch.add(id);
      }
    }
    const wanted = [...batch];
    const loaded = await load(wanted);
    for (const id of wanted) known.set(id, null);
    for (const t of loaded) {
      known.set(t.id, t);
      pages.add(t.pageId);
    }
  };

  const out = roots.map((r) => r.fields);
  let level: Occurrence[] = roots.map((r, n) => ({
    ...r,
    chain: [r.id],
    ids: idsIn(r.declared, r.fields),
    set: (fields) => {
      out[n] = fields;
    },
  }));
  for (let d = 0; d <= depth && level.length > 0; d++) {
    const next: Occurrence[] = [];
    for (let n = 0; n < level.length; n++) {
      const at = level[n] as Occurrence;
      // What each reference becomes, in walk order (none below `depth` or once the budget is spent: `{ id }`).
      const plan: Plan[] = [];
      for (let i = 0; d < depth && left > 0 && i < at.ids.length; i++) {
        const id = at.ids[i] as string;
        if (at.chain.includes(id)) {
          plan.push(STUB);
          continue;
        }
        if (!known.has(id)) await loadFrom(level, n, i);
        const target = known.get(id);
        if (!target?.fields) {
          plan.push(OMIT);
          continue;
        }
        const cost = costOf(target as ReferenceTarget & { fields: Fields });
        if (cost > room) left = 0;
        else {
          left--;
          room -= cost;
          plan.push(target);
        }
      }
      let i = 0;
      at.set(
        readerMap(at.declared, at.fields, (id) => {
          const p = plan[i++];
          if (p === undefined || p === STUB) return { id };
          if (p === OMIT) return OMIT;
          const t = p as ReferenceTarget & { fields: Fields };
          const resolved = {
            id,
            pageId: t.pageId,
            instanceKey: t.instanceKey,
            componentId: t.componentId,
            fields: t.fields,
          };
          next.push({
            fields: t.fields,
            declared: t.declared,
            chain: [...at.chain, id],
            ids: idsOf(t),
            set: (fields) => {
              resolved.fields = fields;
            },
          });
          return resolved;
        }),
      );
    }
    level = next;
  }
  return { fields: out, pages };
}

/** Depth 0: every reference is `{ id }` (nothing is looked up). */
const unresolved = (r: ResolutionRoot): Fields => readerMap(r.declared, r.fields, (id) => ({ id }));

/**
 * mapReferences as readers get it: a stored value that is no entry id (an object where an id belongs,
 * stored before §23 checked every item, or kept when a field became a reference) is left out, null in
 * a single reference, never passed on looking like a resolved one.
 */
const readerMap = (declared: Declarations, fields: Fields, visit: (id: string) => unknown): Fields =>
  mapReferences(declared, fields, visit, OMIT);
