import type { Db } from '../../db/database.js';
import { type ChangeBus, pageKey, splitPageKey, TOPICS } from '../../db/dialect/change-bus.js';
import { type CachedJson, cachedJson } from '../../shared/cached-json.js';
import { MemoCache } from '../../shared/memo-cache.js';
import { byPosition } from '../definitions/definitions.repository.js';
import * as repo from './content.repository.js';

/** The visitor's view of a page, ready to send: the exact bytes of the envelope and their ETag. */
export type PublishedPage = CachedJson;

const EMPTY: PublishedPage = serialize('', []);
const hasEntries = (page: PublishedPage): boolean => page !== EMPTY;

/**
 * Builds the `{ data: [entries], error: null }` envelope by splicing the stored canonical JSON of
 * each entry's published fields, rather than parsing and re-serialising it: the stored text already
 * is valid JSON. Entries are in page order (their definitions' positions, then instanceKey in
 * code-unit order: the same on both dialects).
 * Visitors see the published copy, so `updatedAt` is its `publishedAt` and `version` the version it
 * was published at (a later draft save changes neither, nor this cached page).
 */
function serialize(pageId: string, rows: repo.PublishedRow[]): PublishedPage {
  const q = JSON.stringify;
  const sorted = rows.sort(byPosition);
  const items = sorted.map(
    (r) =>
      `{"id":${q(r.id)},"pageId":${q(pageId)},"instanceKey":${q(r.instanceKey)},"componentId":${q(r.componentId)},"fields":${r.publishedFields},"status":"published","publishedAt":${q(r.publishedAt)},"updatedAt":${q(r.publishedAt)},"version":${r.publishedVersion}}`,
  );
  return cachedJson(Buffer.from(`{"data":[${items.join(',')}],"error":null}`));
}

/** Every live entry of a project, for the snapshot (handed to it in app.ts and the worker). */
export const publishedEntriesForSnapshot = (db: Db, projectId: string) =>
  repo.publishedEntriesOfProject(db, projectId);

/**
 * Published pages kept serialized in memory per (project, page), dropped when a publish, bulk
 * publish, unpublish or a component change of a live entry touches the page (topic `page`, on every
 * instance through the change bus). Only pages with live entries are cached, so requests for made-up
 * page ids cannot fill memory; they cost one indexed query each.
 */
export function createPublishedPages(db: Db, bus: ChangeBus, maxBytes = 64 * 1024 * 1024) {
  const cache = new MemoCache<PublishedPage>(bus, (p) => p.body.length + 200, maxBytes);
  bus.subscribe((topic, key) => {
    if (topic === TOPICS.page) cache.delete(key);
  });

  /** The key is pageKey(projectId, pageId). */
  async function load(key: string): Promise<PublishedPage> {
    const { projectId, pageId } = splitPageKey(key);
    const rows = await repo.publishedEntriesOfPage(db, projectId, pageId);
    return rows.length === 0 ? EMPTY : serialize(pageId, rows);
  }

  const page = (projectId: string, pageId: string): Promise<PublishedPage> =>
    cache.getOrLoad(pageKey(projectId, pageId), load, hasEntries);

  return {
    page,
    /** The cached page, without querying (src/http/fast-reads.ts); undefined when not cached. */
    peek: (projectId: string, pageId: string): PublishedPage | undefined =>
      cache.get(pageKey(projectId, pageId)),
    /** Hits and misses, for /metrics. */
    cacheCounts: () => ({ pages: cache.counts }),
  };
}
