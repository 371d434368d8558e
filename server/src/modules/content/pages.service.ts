import type { Db, DbOrTx, Tx } from '../../db/database.js';
import { type ChangeBus, pageKey, TOPICS, transactionWithChanges } from '../../db/dialect/change-bus.js';
import { actorLabel, type Outbox } from '../../outbox/index.js';
import { byCodeUnits } from '../../shared/canonical.js';
import { AppError, notFound } from '../../shared/errors.js';
import { isSharedPageId } from '../../shared/page-ids.js';
import { memberBehind } from '../../shared/principals.js';
import * as repo from './content.repository.js';
import { type Actor, type DeclaredTypes, describeEntry } from './content.service.js';
import type { EntryRow } from './content.table.js';
import { localePageSummaries } from './locales.repository.js';
import type { PageIdsQuery } from './pages.repository.js';
import * as pagesRepo from './pages.repository.js';
import { publishedReferrers } from './referrers.js';

/** What pages need of the definitions module (its `pageDefinitions`, handed over in app.ts). */
export interface PageDefinitions {
  /** Per page of `pageIds`: its definitions and their latest change. */
  summaries(
    db: DbOrTx,
    projectId: string,
    pageIds: readonly string[],
  ): Promise<{ pageId: string; components: number; updatedAt: string }[]>;
  /** Removes the definitions of a page, or of one instance on it; returns how many went. */
  remove(trx: Tx, projectId: string, pageId: string, instanceKey?: string): Promise<number>;
  /** Whether the page has a definition. */
  exists(db: DbOrTx, projectId: string, pageId: string): Promise<boolean>;
}

export interface PageSummary {
  pageId: string;
  /** A shared page (`@site`): no route of the site (contract §13). */
  shared: boolean;
  components: number;
  published: number;
  drafts: number;
  updatedAt: string;
  /**
   * A project with locales (contract §13): each locale's counts, in the project's order; absent
   * without locales, so such a project's list is the bytes it always was.
   */
  locales?: { code: string; published: number; drafts: number }[];
}

/**
 * What scheduled publishing asks of content about its targets (handed over in app.ts and, for the
 * worker, jobs/handlers.ts): an entry of the project, its page and the words that name it in
 * summaries (null when it does not exist, or belongs to another project); and whether a page exists
 * (it has an entry or a definition, as for GET /v1/pages and DELETE /v1/pages/:pageId).
 */
export function contentTargets(definitions: Pick<PageDefinitions, 'exists'>) {
  return {
    async entry(
      db: DbOrTx,
      projectId: string,
      entryId: string,
    ): Promise<{ pageId: string; label: string } | null> {
      const row = await repo.findEntry(db, projectId, entryId);
      return row ? { pageId: row.pageId, label: describeEntry(row) } : null;
    },
    async pageExists(db: DbOrTx, projectId: string, pageId: string): Promise<boolean> {
      return (await repo.pageHasEntries(db, projectId, pageId)) || definitions.exists(db, projectId, pageId);
    },
  };
}

/**
 * Pages as a whole (contract part two, §6): the list an editor navigates, and deleting an entry or
 * a page with its definitions and history. Deletion of something live is announced like an
 * unpublish: one `content.unpublished` event (webhooks, deploy hooks) and the page and snapshot
 * caches dropped on every instance, all in the deleting transaction.
 */
export function createPagesService(
  db: Db,
  outbox: Outbox,
  bus: ChangeBus,
  definitions: PageDefinitions,
  declared: DeclaredTypes,
) {
  const { enqueueEvent, recordActivity } = outbox;
  /**
   * Contract §13: deleting what published content of other entries refers to is 409 listing them,
   * unless forced (then those references read as missing). Checked inside the deleting transaction,
   * after the rows are gone, so the referrers found are those of the state the delete commits over.
   */
  async function refuseReferenced(trx: Tx, projectId: string, rows: EntryRow[], force: boolean) {
    if (force || rows.length === 0) return;
    const ids = rows.map((r) => r.id);
    const referrers = await publishedReferrers(trx, projectId, ids, new Set(ids), declared.declarationsOf);
    if (referrers.length === 0) return;
    throw new AppError(
      'conflict',
      409,
      `Published content of ${referrers.length} other ${referrers.length === 1 ? 'entry refers' : 'entries refer'} to this; delete with ?force=true to leave those references missing.`,
      { referencedBy: referrers },
    );
  }

  async function announceDeleted(
    trx: Tx,
    changed: (topic: string, key: string) => Promise<void>,
    projectId: string,
    pageId: string,
    rows: EntryRow[],
    actor: Actor,
  ): Promise<void> {
    // A deleted entry's id may be in a live stream or a cached page even when it was not published.
    await changed(TOPICS.page, pageKey(projectId, pageId));
    const live = rows.filter((r) => r.publishedFields !== null);
    if (live.length === 0) return;
    // The unpublish event's shape (fields and publishedAt null), plus `deleted: true`.
    await enqueueEvent(trx, projectId, 'content.unpublished', {
      pageId,
      entries: live.map((r) => ({
        id: r.id,
        instanceKey: r.instanceKey,
        componentId: r.componentId,
        fields: null,
        publishedAt: null,
      })),
      actor: memberBehind(actor),
      deleted: true,
    });
    await changed(TOPICS.snapshot, projectId);
  }

  return {
    /**
     * One page of the project's pages (those with a definition or an entry) in pageId code-unit
     * order, after `query.after`, containing `query.q` (case-insensitive), at most `limit`, and the
     * id the next page starts after while more remain. The ids come from the pages table (one key range);
     * their counts from two grouped, indexed queries over those pages alone, never a query per page.
     */
    async list(projectId: string, query: PageIdsQuery): Promise<{ pages: PageSummary[]; next?: string }> {
      const found = await pagesRepo.pageIdsOf(db, projectId, { ...query, limit: query.limit + 1 });
      const pageIds = found.slice(0, query.limit);
      // More remain: the next page of the list starts after the last id of this one.
      const next = found.length > query.limit ? pageIds.at(-1) : undefined;
      const locales = declared.localesOf ? await declared.localesOf(db, projectId) : null;
      const others = locales?.available.map((l) => l.code).filter((c) => c !== locales.default) ?? [];
      const [defs, entries, inLocales] = await Promise.all([
        definitions.summaries(db, projectId, pageIds),
        repo.entryPageSummaries(db, projectId, pageIds, locales !== null),
        locales ? localePageSummaries(db, projectId, pageIds, others) : [],
      ]);
      const pages = new Map<string, PageSummary>();
      for (const pageId of pageIds) {
        pages.set(pageId, {
          pageId,
          shared: isSharedPageId(pageId),
          components: 0,
          published: 0,
          drafts: 0,
          updatedAt: '',
        });
      }
      for (const d of defs) {
        const page = pages.get(d.pageId);
        if (!page) continue;
        page.components = d.components;
        page.updatedAt = d.updatedAt;
      }
      for (const e of entries) {
        const page = pages.get(e.pageId);
        if (!page) continue;
        page.published = e.published;
        page.drafts = e.drafts;
        if (e.updatedAt > page.updatedAt) page.updatedAt = e.updatedAt;
      }
      if (locales) {
        // The default locale's counts are the page's own (its copies are the entries' own rows). In
        // another locale: `published` its own published copies (never one it reads through a fallback,
        // as the entries' `locales[code]`), `drafts` the entries changed there since their publish in
        // it (its version past the one its copy was made at) or never published there.
        const counts = new Map(entries.map((e) => [e.pageId, e.entries ?? 0]));
        const byPage = new Map<string, Map<string, (typeof inLocales)[number]>>();
        for (const l of inLocales) {
          byPage.set(l.pageId, (byPage.get(l.pageId) ?? new Map()).set(l.locale, l));
        }
        for (const page of pages.values()) {
          const own = byPage.get(page.pageId);
          page.locales = locales.available.map(({ code }) => {
            if (code === locales.default) return { code, published: page.published, drafts: page.drafts };
            const l = own?.get(code);
            if (l && l.updatedAt > page.updatedAt) page.updatedAt = l.updatedAt;
            return {
              code,
              published: l?.published ?? 0,
              drafts: (counts.get(page.pageId) ?? 0) - (l?.current ?? 0),
            };
          });
        }
      }
      // A page row whose last entry and definition went in the same moment (a delete racing this
      // read) has nothing to show: it is left out rather than listed empty.
      return {
        pages: [...pages.values()].filter((p) => p.updatedAt !== ''),
        ...(next !== undefined && { next }),
      };
    },

    /** Removes the entry, its definition and its history. */
    deleteEntry(
      projectId: string,
      entryId: string,
      actor: Actor,
      force = false,
    ): Promise<{ id: string; deleted: true }> {
      return transactionWithChanges(db, bus, async (trx, changed) => {
        const [row] = await repo.deleteEntries(trx, projectId, { id: entryId });
        if (!row) throw notFound('Entry');
        await refuseReferenced(trx, projectId, [row], force);
        await definitions.remove(trx, projectId, row.pageId, row.instanceKey);
        // The page leaves the list with its last entry and definition.
        if (
          !(await repo.pageHasEntries(trx, projectId, row.pageId)) &&
          !(await definitions.exists(trx, projectId, row.pageId))
        ) {
          await pagesRepo.removePage(trx, projectId, row.pageId);
        }
        await announceDeleted(trx, changed, projectId, row.pageId, [row], actor);
        await recordActivity(trx, projectId, actor, {
          action: 'entry.deleted',
          target: { type: 'entry', id: row.id },
          summary: `${actorLabel(actor)} deleted ${describeEntry(row)}.`,
        });
        return { id: row.id, deleted: true as const };
      });
    },

    /** Removes every entry and definition of the page in one transaction; 404 when it has neither. */
    deletePage(
      projectId: string,
      pageId: string,
      actor: Actor,
      force = false,
    ): Promise<{ pageId: string; deleted: string[] }> {
      return transactionWithChanges(db, bus, async (trx, changed) => {
        const rows = await repo.deleteEntries(trx, projectId, { pageId });
        const removed = await definitions.remove(trx, projectId, pageId);
        if (rows.length === 0 && removed === 0) throw notFound('Page');
        await refuseReferenced(trx, projectId, rows, force);
        await pagesRepo.removePage(trx, projectId, pageId);
        rows.sort((a, b) => byCodeUnits(a.instanceKey, b.instanceKey));
        await announceDeleted(trx, changed, projectId, pageId, rows, actor);
        await recordActivity(trx, projectId, actor, {
          action: 'page.deleted',
          target: { type: 'page', id: pageId },
          summary: `${actorLabel(actor)} deleted page ${pageId} (${rows.length} ${rows.length === 1 ? 'entry' : 'entries'}).`,
        });
        return { pageId, deleted: rows.map((r) => r.id) };
      });
    },
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
