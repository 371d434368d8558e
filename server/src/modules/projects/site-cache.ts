import type { Db, DbOrTx } from '../../db/database.js';
import { type ChangeBus, TOPICS } from '../../db/dialect/change-bus.js';
import { type Locales, parseLocales } from '../../shared/locales.js';
import { MemoCache } from '../../shared/memo-cache.js';
import { siteBy } from './projects.repository.js';

/** What other modules read of a project: the key's project, CORS domains, snapshot and media settings. */
export interface Site {
  projectId: string;
  domains: string[];
  bakeEnabled: boolean;
  cdnUrl: string | null;
  /** The languages (contract §14); null: one language. */
  locales: Locales | null;
}

/** One project's Site, read fresh (processes without a change bus, such as the worker, use this). */
export async function loadSite(db: DbOrTx, column: 'apiKey' | 'id', value: string): Promise<Site | null> {
  const row = await siteBy(db, column, value);
  return row
    ? {
        projectId: row.id,
        domains: JSON.parse(row.domains) as string[],
        bakeEnabled: row.bakeEnabled === 1,
        cdnUrl: row.cdnUrl,
        locales: parseLocales(row.locales),
      }
    : null;
}

const known = (site: Site | null): boolean => site !== null;

/**
 * A Site's bytes, roughly (its strings as JSON, twice for the objects around them): a project may
 * list many domains and locales, so a flat 256 bytes each let the 16 MB bound hold 65,536 of any
 * size (issue 42). Computed once per load.
 */
const siteBytes = (site: Site | null): number => (site ? 128 + 2 * JSON.stringify(site).length : 64);

/**
 * Publishable key → project, and project → its settings, held in memory: every visitor read needs
 * them, and a query per request would cost more than the rest of the request. The projects module
 * owns the table; snapshot, media and CORS read projects through this. Invalidated through the
 * change bus by rotate-key and PATCH project (topic `project`). Unknown keys are not cached, so
 * strangers sending random keys cannot grow memory; each costs one indexed query.
 */
export function createSiteCache(db: Db, bus: ChangeBus) {
  const byKey = new MemoCache<Site | null>(bus, siteBytes, 16 * 1024 * 1024);
  const byProject = new MemoCache<Site | null>(bus, siteBytes, 16 * 1024 * 1024);
  bus.subscribe((topic, projectId) => {
    if (topic !== TOPICS.project) return;
    byProject.delete(projectId);
    byKey.deleteWhere((_key, site) => site?.projectId === projectId);
  });
  const loadByKey = (apiKey: string) => loadSite(db, 'apiKey', apiKey);
  const loadById = (projectId: string) => loadSite(db, 'id', projectId);

  return {
    /** The project of a cached key, without querying (the revalidation fast path). */
    peekProjectId: (apiKey: string): string | undefined => byKey.get(apiKey)?.projectId,

    /** The site of a publishable key (it carries `projectId`, all the auth layer reads); null if unknown. */
    byKey: (apiKey: string): Promise<Site | null> => byKey.getOrLoad(apiKey, loadByKey, known),

    /**
     * The project's site; null for an unknown project. Inside a transaction, pass it as `reader`: a
     * miss is then read through it and not kept. On SQLite the cache's own handle would wait for the
     * one connection the transaction holds (a deadlock that stopped every later query: a restore
     * after a project's settings changed, issue 42's fuzz), and what a transaction reads may yet be
     * rolled back.
     */
    byId: (projectId: string, reader?: DbOrTx): Promise<Site | null> =>
      reader?.isTransaction
        ? Promise.resolve(byProject.get(projectId) ?? loadSite(reader, 'id', projectId))
        : byProject.getOrLoad(projectId, loadById, known),

    /** Hits and misses of each cache, for /metrics. */
    cacheCounts: () => ({ site_key: byKey.counts, site_project: byProject.counts }),
  };
}

export type SiteCache = ReturnType<typeof createSiteCache>;
