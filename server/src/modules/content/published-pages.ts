import type { Db } from '../../db/database.js';
import { type ChangeBus, FLUSH_ALL, pageKey, splitPageKey, TOPICS } from '../../db/dialect/change-bus.js';
import { type CachedJson, cachedJson } from '../../shared/cached-json.js';
import { MemoCache } from '../../shared/memo-cache.js';
import { byPosition, declarationsOf } from '../definitions/index.js';
import * as repo from './content.repository.js';
import type { Fields } from './content.service.js';
import { referenceTargets } from './reference-targets.js';
import { DEFAULT_DEPTH, MAX_DEPTH, resolveReferences } from './references.js';

/** The visitor's view of a page, ready to send: the exact bytes of the envelope and their ETag. */
export type PublishedPage = CachedJson;

const EMPTY: PublishedPage = serialize('', [], []);
const hasEntries = (page: PublishedPage): boolean => page !== EMPTY;

/**
 * Builds the `{ data: [entries], error: null }` envelope by splicing the stored canonical JSON of
 * each entry's published fields, rather than parsing and re-serialising it: the stored text already
 * is valid JSON. Entries are in page order (their definitions' positions, then instanceKey in
 * code-unit order: the same on both dialects).
 * Visitors see the published copy, so `updatedAt` is its `publishedAt` and `version` the version it
 * was published at (a later draft save changes neither, nor this cached page). An entry whose
 * references were resolved (`resolved[i]` set) is written from its resolved fields instead.
 */
function serialize(
  pageId: string,
  rows: repo.PublishedRow[],
  resolved: (Fields | undefined)[],
): PublishedPage {
  const q = JSON.stringify;
  const items = rows.map((r, i) => {
    const fields = resolved[i] === undefined ? r.publishedFields : q(resolved[i]);
    return `{"id":${q(r.id)},"pageId":${q(pageId)},"instanceKey":${q(r.instanceKey)},"componentId":${q(r.componentId)},"fields":${fields},"status":"published","publishedAt":${q(r.publishedAt)},"updatedAt":${q(r.publishedAt)},"version":${r.publishedVersion}}`;
  });
  return cachedJson(Buffer.from(`{"data":[${items.join(',')}],"error":null}`));
}

/** Every live entry of a project, for the snapshot (handed to it in app.ts and the worker). */
export const publishedEntriesForSnapshot = (db: Db, projectId: string) =>
  repo.publishedEntriesOfProject(db, projectId);

/** The cache key of a page read at `depth`: the plain page key at the default depth (the fast path's). */
const keyAt = (key: string, depth: number): string =>
  depth === DEFAULT_DEPTH ? key : `${key}\u0000${depth}`;

/**
 * Published pages kept serialized in memory per (project, page, depth), references resolved
 * (references.ts), dropped when a publish, bulk publish, unpublish, deletion or a definition change
 * touches the page (topic `page`, on every instance through the change bus), and also when it touches
 * a page holding an entry this page's answer read to resolve its references: each cached answer
 * records those pages, and an index from them to it finds every dependent page in one lookup, so a
 * publish of an entry that 1,000 pages reference drops those 1,000 at once on every instance, with
 * no query and nothing new on the bus. Only pages with live entries are cached, so requests for
 * made-up page ids cannot fill memory; they cost one indexed query each.
 */
export function createPublishedPages(db: Db, bus: ChangeBus, maxBytes = 64 * 1024 * 1024) {
  const cache = new MemoCache<PublishedPage>(bus, (p) => p.body.length + 200, maxBytes);
  /** Page key → keys of cached answers that read an entry of that page to resolve a reference. */
  const dependents = new Map<string, Set<string>>();
  const drop = (key: string) => {
    for (let depth = 0; depth <= MAX_DEPTH; depth++) cache.delete(keyAt(key, depth));
  };
  bus.subscribe((topic, key) => {
    if (topic === FLUSH_ALL) dependents.clear();
    if (topic !== TOPICS.page) return;
    drop(key);
    const readers = dependents.get(key);
    if (!readers) return;
    dependents.delete(key);
    for (const reader of readers) cache.delete(reader);
  });

  /** Loads the answer cached under `cacheKey` (keyAt: the page key, then the depth when not the default). */
  async function load(cacheKey: string): Promise<PublishedPage> {
    const cut = cacheKey.indexOf('\u0000');
    const key = cut === -1 ? cacheKey : cacheKey.slice(0, cut);
    const depth = cut === -1 ? DEFAULT_DEPTH : Number(cacheKey.slice(cut + 1));
    const { projectId, pageId } = splitPageKey(key);
    const rows = await repo.publishedEntriesOfPageWithDeclarations(db, projectId, pageId);
    if (rows.length === 0) return EMPTY;
    rows.sort(byPosition);
    const roots = rows.map((r) => ({
      id: r.id,
      fields: JSON.parse(r.publishedFields) as Fields,
      declared: declarationsOf(r.declaredFields),
    }));
    const { fields, pages } = await resolveReferences(
      roots,
      depth,
      referenceTargets(db, projectId, 'published'),
    );
    // Registered before the answer is stored: a change to one of these pages from now on drops it,
    // and one that came during the load refuses to store it (MemoCache's epoch).
    for (const page of pages) {
      const readers = dependents.get(pageKey(projectId, page)) ?? new Set<string>();
      readers.add(cacheKey);
      dependents.set(pageKey(projectId, page), readers);
    }
    return serialize(
      pageId,
      rows,
      fields.map((f, i) => (f === roots[i]?.fields ? undefined : f)),
    );
  }
  const page = (projectId: string, pageId: string, depth = DEFAULT_DEPTH): Promise<PublishedPage> =>
    cache.getOrLoad(keyAt(pageKey(projectId, pageId), depth), load, hasEntries);

  return {
    page,
    /** The cached page at the default depth, without querying (src/http/fast-reads.ts); undefined when not cached. */
    peek: (projectId: string, pageId: string): PublishedPage | undefined =>
      cache.get(pageKey(projectId, pageId)),
    /** Hits and misses, for /metrics. */
    cacheCounts: () => ({ pages: cache.counts }),
  };
}
