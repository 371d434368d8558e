import type { Db } from '../../db/database.js';
import { type ChangeBus, FLUSH_ALL, pageKey, splitPageKey, TOPICS } from '../../db/dialect/change-bus.js';
import { type CachedJson, cachedJson } from '../../shared/cached-json.js';
import { MemoCache } from '../../shared/memo-cache.js';
import { byPosition, declarationsOf } from '../definitions/index.js';
import * as repo from './content.repository.js';
import type { Fields } from './content.service.js';
import { referenceTargets } from './reference-targets.js';
import {
  DEFAULT_DEPTH,
  type LoadTargets,
  MAX_DEPTH,
  type ReferenceTarget,
  resolveReferences,
} from './references.js';

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

/** Keys per batch: one query for their pages' entries, one per level for their targets. */
const BATCH = 500;
/** Loads of a dropped dependent before its readers are left to load it (changes kept coming). */
const REBUILD_TRIES = 3;

/**
 * A LoadTargets that gathers the ids asked for in one turn of the event loop into one load, and
 * loads each id at most once: the pages of a batch resolve their references together (every
 * page of a batch is loaded after the batch began, so what it reads is at least that new).
 */
function batchedTargets(load: LoadTargets): LoadTargets {
  const known = new Map<string, Promise<ReferenceTarget | undefined>>();
  let next: { ids: string[]; loaded: Promise<Map<string, ReferenceTarget>> } | null = null;
  return async (ids) => {
    for (const id of ids) {
      if (known.has(id)) continue;
      if (next === null) {
        const batch: { ids: string[]; loaded?: Promise<Map<string, ReferenceTarget>> } = { ids: [] };
        batch.loaded = new Promise<ReferenceTarget[]>((resolve, reject) =>
          setImmediate(() => {
            if (next === batch) next = null;
            load(batch.ids).then(resolve, reject);
          }),
        ).then((targets) => new Map(targets.map((t) => [t.id, t])));
        next = batch as { ids: string[]; loaded: Promise<Map<string, ReferenceTarget>> };
      }
      next.ids.push(id);
      known.set(
        id,
        next.loaded.then((m) => m.get(id)),
      );
    }
    const found = await Promise.all(ids.map((id) => known.get(id)));
    return found.filter((t): t is ReferenceTarget => t !== undefined);
  };
}

interface Pending {
  promise: Promise<PublishedPage>;
  resolve: (page: PublishedPage) => void;
  reject: (err: unknown) => void;
}

/**
 * Published pages kept serialized in memory per (project, page, depth), references resolved
 * (references.ts), dropped when a publish, bulk publish, unpublish, deletion or a definition change
 * touches the page (topic `page`, on every instance through the change bus), and also when it touches
 * a page holding an entry this page's answer read to resolve its references: each cached answer
 * records those pages, and an index from them to it finds every dependent page in one lookup, so a
 * publish of an entry that 1,000 pages reference drops those 1,000 at once on every instance, with
 * no query and nothing new on the bus. Only pages with live entries are cached, so requests for
 * made-up page ids cannot fill memory; they cost one indexed query each.
 *
 * Loads are batched: the misses of one turn of the event loop load together (one query for their
 * pages' entries, one per level for their references, per 500 pages), a read that misses while the
 * same page is loading joins that load, and the dependents a change dropped are rebuilt at once in
 * the background, so the 1,000 pages above are served from memory again a few milliseconds after
 * the notification rather than costing two queries each when their readers come back.
 * Coherence (contract §17): a load that began before a change of any page is never joined by a read
 * that came after it (every `page` notification forgets the loads under way: their readers still get
 * them, nobody new does), nor stored (MemoCache's epoch); a batch's queries begin after every change
 * its keys were queued after. While the bus is not live nothing is joined or stored.
 */
export function createPublishedPages(db: Db, bus: ChangeBus, maxBytes = 64 * 1024 * 1024) {
  const cache = new MemoCache<PublishedPage>(bus, (p) => p.body.length + 200, maxBytes);
  /** Page key → keys of cached answers that read an entry of that page to resolve a reference. */
  const dependents = new Map<string, Set<string>>();
  /** Keys waiting for the next batch (their queries have not begun: anyone may join). */
  let queued = new Map<string, Pending>();
  /** Keys whose batch is under way, begun after the last change (forgotten at the next one). */
  const running = new Map<string, Promise<PublishedPage>>();
  const drop = (key: string) => {
    for (let depth = 0; depth <= MAX_DEPTH; depth++) cache.delete(keyAt(key, depth));
  };
  bus.subscribe((topic, key) => {
    if (topic === FLUSH_ALL) {
      dependents.clear();
      running.clear();
    }
    if (topic !== TOPICS.page) return;
    running.clear();
    drop(key);
    const readers = dependents.get(key);
    if (!readers) return;
    dependents.delete(key);
    for (const reader of readers) cache.delete(reader);
    // Read before: read again, queued after this change (so their queries begin after it), but on
    // the next turn: on the instance that wrote, this runs before its answer, which need not wait.
    setImmediate(() => {
      for (const reader of readers) rebuild(reader, REBUILD_TRIES);
    });
  });

  /**
   * Loads `cacheKey` ahead of its readers. A change during the load refuses to store it (and a
   * change to the same page then finds no dependents to rebuild: they register when their load
   * ends), so a refused rebuild loads again, from after that change, a bounded number of times.
   */
  function rebuild(cacheKey: string, tries: number): void {
    cache.refill(cacheKey, load, hasEntries).then(
      (stored) => {
        if (!stored && tries > 1) rebuild(cacheKey, tries - 1);
      },
      () => {}, // the database failed: its readers load it themselves
    );
  }

  /** The answer of `cacheKey` (keyAt: the page key, then the depth when not the default), batched. */
  function load(cacheKey: string): Promise<PublishedPage> {
    const waiting = queued.get(cacheKey)?.promise ?? (bus.live ? running.get(cacheKey) : undefined);
    if (waiting) return waiting;
    if (queued.size === 0) setImmediate(flush);
    let settle!: Pick<Pending, 'resolve' | 'reject'>;
    const promise = new Promise<PublishedPage>((resolve, reject) => {
      settle = { resolve, reject };
    });
    queued.set(cacheKey, { promise, ...settle });
    return promise;
  }

  function flush(): void {
    const batch = queued;
    queued = new Map();
    const byProject = new Map<
      string,
      { cacheKey: string; pageId: string; depth: number; pending: Pending }[]
    >();
    for (const [cacheKey, pending] of batch) {
      running.set(cacheKey, pending.promise);
      const cut = cacheKey.indexOf('\u0000');
      const { projectId, pageId } = splitPageKey(cut === -1 ? cacheKey : cacheKey.slice(0, cut));
      const depth = cut === -1 ? DEFAULT_DEPTH : Number(cacheKey.slice(cut + 1));
      const list = byProject.get(projectId) ?? [];
      list.push({ cacheKey, pageId, depth, pending });
      byProject.set(projectId, list);
    }
    for (const [projectId, keys] of byProject)
      for (let i = 0; i < keys.length; i += BATCH) {
        const slice = keys.slice(i, i + BATCH);
        loadPages(projectId, slice).then(
          () => {},
          (err) => {
            for (const k of slice) k.pending.reject(err);
          },
        );
      }
    for (const [cacheKey, pending] of batch)
      pending.promise.then(
        () => running.get(cacheKey) === pending.promise && running.delete(cacheKey),
        () => running.get(cacheKey) === pending.promise && running.delete(cacheKey),
      );
  }

  /** Loads and settles `keys` of one project: one query for their entries, one per level for their targets. */
  async function loadPages(
    projectId: string,
    keys: { cacheKey: string; pageId: string; depth: number; pending: Pending }[],
  ): Promise<void> {
    const rows = await repo.publishedEntriesOfPagesWithDeclarations(db, projectId, [
      ...new Set(keys.map((k) => k.pageId)),
    ]);
    const byPage = new Map<string, typeof rows>();
    for (const row of rows) {
      const list = byPage.get(row.pageId) ?? [];
      list.push(row);
      byPage.set(row.pageId, list);
    }
    for (const list of byPage.values()) list.sort(byPosition);
    const targets = batchedTargets(referenceTargets(db, projectId, 'published'));
    await Promise.all(
      keys.map(async ({ cacheKey, pageId, depth, pending }) => {
        try {
          pending.resolve(
            await answer(projectId, pageId, depth, cacheKey, byPage.get(pageId) ?? [], targets),
          );
        } catch (err) {
          pending.reject(err);
        }
      }),
    );
  }

  /** One page's answer from its rows, its references resolved through `targets`. */
  async function answer(
    projectId: string,
    pageId: string,
    depth: number,
    cacheKey: string,
    rows: (repo.PublishedRow & { declaredFields: string | null })[],
    targets: LoadTargets,
  ): Promise<PublishedPage> {
    if (rows.length === 0) return EMPTY;
    const roots = rows.map((r) => ({
      id: r.id,
      fields: JSON.parse(r.publishedFields) as Fields,
      declared: declarationsOf(r.declaredFields),
    }));
    const { fields, pages } = await resolveReferences(roots, depth, targets);
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
