import type { Db } from '../../db/database.js';
import { type ChangeBus, TOPICS } from '../../db/dialect/change-bus.js';
import { MemoCache } from '../../shared/memo-cache.js';

interface Site {
  projectId: string;
  domains: string[];
}

/**
 * Publishable key → project (and its CORS domains), held in memory: every visitor read needs it, and
 * a query per request would cost more than the rest of the request. Invalidated through the change
 * bus by rotate-key and PATCH project (topic `project`). Unknown keys are not cached, so strangers
 * sending random keys cannot grow memory; each costs one indexed query.
 */
export function createSiteCache(db: Db, bus: ChangeBus) {
  const byKey = new MemoCache<Site>(bus, () => 256, 16 * 1024 * 1024);
  const byProject = new MemoCache<Site>(bus, () => 256, 16 * 1024 * 1024);
  bus.subscribe((topic, projectId) => {
    if (topic !== TOPICS.project) return;
    byProject.delete(projectId);
    byKey.deleteWhere((_key, site) => site.projectId === projectId);
  });

  async function load(column: 'apiKey' | 'id', value: string): Promise<(Site & { apiKey: string }) | null> {
    const row = await db
      .selectFrom('projects')
      .select(['id', 'apiKey', 'domains'])
      .where(column, '=', value)
      .executeTakeFirst();
    return row
      ? { projectId: row.id, apiKey: row.apiKey, domains: JSON.parse(row.domains) as string[] }
      : null;
  }

  return {
    /** The project of a cached key, without querying (the revalidation fast path). */
    peekProjectId: (apiKey: string): string | undefined => byKey.get(apiKey)?.projectId,

    async projectIdByKey(apiKey: string): Promise<string | null> {
      const cached = byKey.get(apiKey);
      if (cached) return cached.projectId;
      const epoch = byKey.epoch();
      const site = await load('apiKey', apiKey);
      if (!site) return null;
      byKey.set(apiKey, site, epoch);
      return site.projectId;
    },

    /** The project's allowed browser origins (host names); null for an unknown project. */
    async domainsOf(projectId: string): Promise<string[] | null> {
      const cached = byProject.get(projectId);
      if (cached) return cached.domains;
      const epoch = byProject.epoch();
      const site = await load('id', projectId);
      if (!site) return null;
      byProject.set(projectId, site, epoch);
      return site.domains;
    },
  };
}

export type SiteCache = ReturnType<typeof createSiteCache>;
