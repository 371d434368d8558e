import type { Db } from '../../db/database.js';
import { type ChangeBus, FLUSH_ALL, pageKey, splitPageKey, TOPICS } from '../../db/dialect/change-bus.js';
import { type CachedJson, cachedJson } from '../../shared/cached-json.js';
import type { Locales } from '../../shared/locales.js';
import { MemoCache } from '../../shared/memo-cache.js';
import { byPosition, declarationsOf } from '../definitions/index.js';
import * as repo from './content.repository.js';
import type { Fields } from './content.service.js';
import { pageIn, publishedTargetsIn, visitorLocale } from './locale-reads.js';
import { referenceTargets } from './reference-targets.js';
import {
  DEFAULT_DEPTH,
  DEFAULT_RESOLVE_MAX_BYTES,
  type LoadTargets,
  MAX_DEPTH,
  type ReferenceTarget,
  resolveReferences,
} from './references.js';

/** The visitor's view of a page, ready to send: the exact bytes of the envelope and their ETag. */
export type PublishedPage = CachedJson;

const EMPTY: PublishedPage = serialize('', [], [], () => NO_LOCALES);
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
  rows: Omit<repo.PublishedRow, 'position'>[],
  resolved: (Fields | undefined)[],
  /** Each entry's `,"locale":…,"locales":…` (NO_LOCALES: nothing, in a project without locales). */
  localesOf: (i: number) => string,
): PublishedPage {
  const q = JSON.stringify;
  const items = rows.map((r, i) => {
    const fields = resolved[i] === undefined ? r.publishedFields : q(resolved[i]);
    return `{"id":${q(r.id)},"pageId":${q(pageId)},"instanceKey":${q(r.instanceKey)},"componentId":${q(r.componentId)},"fields":${fields},"status":"published","publishedAt":${q(r.publishedAt)},"updatedAt":${q(r.publishedAt)},"version":${r.publishedVersion}${localesOf(i)}}`;
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
 * An entry's `locale` and `locales` in a project without locales: left out (the contract's nulls), so
 * its answers are byte for byte as before, as the editor reads' are (issue 35).
 */
const NO_LOCALES = '';

/**
 * The cache key of a read in a locale asked by `?locale=` (its project code; undefined when not asked:
 * the default locale, or no locale at all) and with `?fallback=false` or not. A read that asks no
 * locale keeps the plain key, so a project without locales is cached as before.
 */
export const readKey = (key: string, depth: number, locale?: string, fallback = true): string =>
  locale === undefined ? keyAt(key, depth) : `${keyAt(key, depth)}\u0001${locale}${fallback ? '' : '\u0001'}`;

/** The parts of a readKey. */
function splitReadKey(cacheKey: string) {
  const mark = cacheKey.indexOf('\u0001');
  const head = mark === -1 ? cacheKey : cacheKey.slice(0, mark);
  const tail = mark === -1 ? undefined : cacheKey.slice(mark + 1);
  const cut = head.indexOf('\u0000');
  const fallback = tail === undefined || !tail.endsWith('\u0001');
  return {
    key: cut === -1 ? head : head.slice(0, cut),
    depth: cut === -1 ? DEFAULT_DEPTH : Number(head.slice(cut + 1)),
    locale: tail === undefined || fallback ? tail : tail.slice(0, -1),
    fallback,
  };
}

/** Where a project's locales come from (the projects' site cache, handed over in app.ts). */
export type LocalesOf = (projectId: string) => Promise<Locales | null>;
const withoutLocales: LocalesOf = async () => null;

/** Keys per batch: one query for their pages' entries, one per level for their targets. */
const BATCH = 500;
/** Loads of a dropped dependent before its readers are left to load it (changes kept coming). */
const REBUILD_TRIES = 3;
/** How long after a change its dropped dependents are rebuilt: after the change's own answer. */
const REBUILD_DELAY_MS = 20;

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

/** A key of a batch, with its parts. */
interface Queued {
  cacheKey: string;
  pageId: string;
  depth: number;
  parts: ReturnType<typeof splitReadKey>;
  pending: Pending;
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
export function createPublishedPages(
  db: Db,
  bus: ChangeBus,
  maxBytes = 64 * 1024 * 1024,
  localesOf: LocalesOf = withoutLocales,
  /** CMS_RESOLVE_MAX_BYTES (references.ts). */
  resolveMaxBytes = DEFAULT_RESOLVE_MAX_BYTES,
) {
  const cache = new MemoCache<PublishedPage>(bus, (p) => p.body.length + 200, maxBytes);
  /** Page key → keys of cached answers that read an entry of that page to resolve a reference. */
  const dependents = new Map<string, Set<string>>();
  /** Keys waiting for the next batch (their queries have not begun: anyone may join). */
  let queued = new Map<string, Pending>();
  /** Keys whose batch is under way, begun after the last change (forgotten at the next one). */
  const running = new Map<string, Promise<PublishedPage>>();
  /**
   * Languages (contract §14): page key → keys of its cached reads in a project with locales, each with
   * the locales whose published copies it read (its fallback chain). A publish or unpublish in one
   * locale (a `page` key naming it) drops the reads whose chain holds it and no other.
   */
  const inLocales = new Map<string, Map<string, readonly string[]>>();
  const chainOfRead = (cacheKey: string): readonly string[] | undefined =>
    inLocales.get(splitReadKey(cacheKey).key)?.get(cacheKey);
  const forget = (cacheKey: string) => {
    const page = splitReadKey(cacheKey).key;
    const reads = inLocales.get(page);
    if (reads?.delete(cacheKey) && reads.size === 0) inLocales.delete(page);
  };
  /** Whether a change in `locale` (undefined: every locale) changes the cached read. */
  const touches = (cacheKey: string, locale: string | undefined) =>
    locale === undefined || (chainOfRead(cacheKey)?.includes(locale) ?? true);
  const drop = (cacheKey: string) => {
    cache.delete(cacheKey);
    forget(cacheKey);
  };
  bus.subscribe((topic, key) => {
    if (topic === FLUSH_ALL) {
      dependents.clear();
      running.clear();
      inLocales.clear();
    }
    // The project's settings changed (its locales among them): none of its cached reads is trusted.
    if (topic === TOPICS.project) {
      running.clear();
      const own = (k: string) => k.startsWith(`${key} `);
      cache.deleteWhere(own);
      for (const k of [...dependents.keys()]) if (own(k)) dependents.delete(k);
      for (const k of [...inLocales.keys()]) if (own(k)) inLocales.delete(k);
      return;
    }
    if (topic !== TOPICS.page) return;
    running.clear();
    const { page, locale } = splitPageKey(key);
    if (locale === undefined)
      for (let depth = 0; depth <= MAX_DEPTH; depth++) cache.delete(keyAt(page, depth));
    for (const read of [...(inLocales.get(page)?.keys() ?? [])]) if (touches(read, locale)) drop(read);
    const readers = dependents.get(page);
    if (!readers) return;
    const dropped: string[] = [];
    for (const reader of [...readers]) {
      if (!touches(reader, locale)) continue;
      readers.delete(reader);
      drop(reader);
      dropped.push(reader);
    }
    if (readers.size === 0) dependents.delete(page);
    // Read before: read again, queued after this change (so their queries begin after it), but a
    // little later: on the instance that wrote, PostgreSQL hands this notification back while the
    // write's own answer is still on its way, and rebuilding a thousand pages first made that publish
    // three times slower (bench/references). Nothing stale is served meanwhile: they are dropped now.
    setTimeout(() => {
      for (const reader of dropped) rebuild(reader, REBUILD_TRIES);
    }, REBUILD_DELAY_MS);
  });

  /** Registers a cached answer's readers: a change to one of `pages` from now on drops it. */
  function dependOn(cacheKey: string, projectId: string, pages: Iterable<string>) {
    for (const page of pages) {
      const readers = dependents.get(pageKey(projectId, page)) ?? new Set<string>();
      readers.add(cacheKey);
      dependents.set(pageKey(projectId, page), readers);
    }
  }

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
    const byProject = new Map<string, Queued[]>();
    for (const [cacheKey, pending] of batch) {
      running.set(cacheKey, pending.promise);
      const parts = splitReadKey(cacheKey);
      const { projectId, pageId } = splitPageKey(parts.key);
      const list = byProject.get(projectId) ?? [];
      list.push({ cacheKey, pageId, depth: parts.depth, parts, pending });
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

  /**
   * Loads and settles `keys` of one project: one query for their entries, one per level (and per 50
   * targets, references.ts) for their targets. A project with locales reads each page in its locale (loadIn), one by one.
   */
  async function loadPages(projectId: string, keys: Queued[]): Promise<void> {
    const locales = await localesOf(projectId);
    if (locales !== null) {
      await Promise.all(
        keys.map(async ({ cacheKey, parts, pending }) => {
          try {
            pending.resolve(await loadIn(cacheKey, parts, locales));
          } catch (err) {
            pending.reject(err);
          }
        }),
      );
      return;
    }
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
    const { fields, pages } = await resolveReferences(roots, depth, targets, resolveMaxBytes);
    // Registered before the answer is stored: a change to one of these pages from now on drops it,
    // and one that came during the load refuses to store it (MemoCache's epoch).
    dependOn(cacheKey, projectId, pages);
    return serialize(
      pageId,
      rows,
      fields.map((f, i) => (f === roots[i]?.fields ? undefined : f)),
      () => NO_LOCALES,
    );
  }

  /** A read in a project with locales (contract §14): each entry as a visitor sees it in the locale. */
  async function loadIn(
    cacheKey: string,
    parts: ReturnType<typeof splitReadKey>,
    locales: Locales,
  ): Promise<PublishedPage> {
    const { projectId, pageId } = splitPageKey(parts.key);
    const reader = visitorLocale(locales, parts.locale ?? locales.default, parts.fallback);
    const views = await pageIn(db, projectId, pageId, reader);
    if (views.length === 0) return EMPTY;
    views.sort(byPosition);
    const { fields, pages } = await resolveReferences(
      views,
      parts.depth,
      publishedTargetsIn(db, projectId, reader),
      resolveMaxBytes,
    );
    // Registered before the answer is stored (as in load).
    dependOn(cacheKey, projectId, pages);
    const reads = inLocales.get(parts.key) ?? new Map<string, readonly string[]>();
    reads.set(cacheKey, reader.chain);
    inLocales.set(parts.key, reads);
    const q = JSON.stringify;
    const code = q(reader.code);
    return serialize(
      pageId,
      views.map((v) => ({ ...v, publishedFields: q(v.fields), publishedVersion: v.version })),
      fields.map((f, i) => (f === views[i]?.fields ? undefined : f)),
      (i) => `,"locale":${code},"locales":${q(views[i]?.locales)}`,
    );
  }

  /**
   * The page as visitors read it. `locale`: the project's code asked by `?locale=` (undefined when none
   * was: the default locale); `fallback`: false for `?fallback=false`.
   */
  const page = (
    projectId: string,
    pageId: string,
    depth = DEFAULT_DEPTH,
    locale?: string,
    fallback = true,
  ): Promise<PublishedPage> =>
    cache.getOrLoad(readKey(pageKey(projectId, pageId), depth, locale, fallback), load, hasEntries);

  return {
    page,
    /**
     * The cached page at the default depth, without querying (src/http/fast-reads.ts); undefined when
     * not cached. `locale` as sent in `?locale=`: only a project code exactly as cached finds anything.
     */
    peek: (projectId: string, pageId: string, locale?: string, fallback = true): PublishedPage | undefined =>
      cache.get(readKey(pageKey(projectId, pageId), DEFAULT_DEPTH, locale, fallback)),
    /** Hits and misses, for /metrics. */
    cacheCounts: () => ({ pages: cache.counts }),
  };
}
