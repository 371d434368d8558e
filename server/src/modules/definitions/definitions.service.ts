import type { Db, DbOrTx, Tx } from '../../db/database.js';
import { type ChangeBus, pageKey, TOPICS, transactionWithChanges } from '../../db/dialect/change-bus.js';
import { lockRow } from '../../db/dialect/index.js';
import { byCodeUnits } from '../../shared/canonical.js';
import { AppError, type FieldProblem, validationFailed } from '../../shared/errors.js';
import { isoNow } from '../../shared/time.js';
import * as repo from './definitions.repository.js';
import type { DefinitionRow } from './definitions.table.js';
import { LIMITS } from './limits.js';

export interface ComponentInput {
  componentId: string;
  instanceKey: string;
  fields: { key: string; type: string }[];
}

/**
 * What a sync needs of the content module, handed over in app.ts (content depends on definitions
 * for field types, so definitions must not import content back): each definition has an entry.
 */
export interface EntryStubs {
  /** Creates an empty draft entry for each component that has none; returns the instance keys created. */
  create(
    trx: Tx,
    page: { projectId: string; pageId: string },
    components: { instanceKey: string; componentId: string }[],
    now: string,
  ): Promise<string[]>;
  /** Moves the entry to a changed component; `live` when it was published (visitors see the change). */
  changeComponent(
    trx: Tx,
    key: { projectId: string; pageId: string; instanceKey: string },
    componentId: string,
    now: string,
  ): Promise<{ live: boolean }>;
}

/** The declared type of each field of one component instance (empty when none is declared). */
export async function declaredFieldTypes(
  db: DbOrTx,
  projectId: string,
  pageId: string,
  instanceKey: string,
): Promise<Map<string, string>> {
  const definition = await repo.findDefinition(db, projectId, pageId, instanceKey);
  const fields = definition ? (JSON.parse(definition.fields) as { key: string; type: string }[]) : [];
  return new Map(fields.map((f) => [f.key, f.type]));
}

const limitReached = (message: string, limit: number) => new AppError('conflict', 409, message, { limit });

/** Duplicates inside one request are the caller's mistake: say which. */
function checkDuplicates(components: ComponentInput[]): void {
  const problems: FieldProblem[] = [];
  const keys = new Set<string>();
  components.forEach((c, i) => {
    if (keys.has(c.instanceKey))
      problems.push({ path: `body.components.${i}.instanceKey`, message: 'is sent twice' });
    keys.add(c.instanceKey);
    const fieldKeys = new Set<string>();
    c.fields.forEach((f, j) => {
      if (fieldKeys.has(f.key))
        problems.push({ path: `body.components.${i}.fields.${j}.key`, message: 'is declared twice' });
      fieldKeys.add(f.key);
    });
  });
  if (problems.length > 0) throw validationFailed('The components are not valid.', problems);
}

/** Stored form of a component's fields: key order fixed, so an identical resend compares equal. */
const fieldsJson = (c: ComponentInput) => JSON.stringify(c.fields.map((f) => ({ key: f.key, type: f.type })));

/** What must be written: definitions that are new or differ from the stored ones. */
function diff(stored: DefinitionRow[], components: ComponentInput[]) {
  const byKey = new Map(stored.map((d) => [d.instanceKey, d]));
  const changed = components.filter((c) => {
    const d = byKey.get(c.instanceKey);
    return !d || d.componentId !== c.componentId || d.fields !== fieldsJson(c);
  });
  const added = changed.filter((c) => !byKey.has(c.instanceKey));
  return { changed, added, byKey };
}

export function createDefinitionsService(db: Db, bus: ChangeBus, entries: EntryStubs) {
  return {
    /**
     * Additive and idempotent: upserts each (pageId, instanceKey) and creates a stub entry where none
     * exists. The SDK may call this on every mount, so an unchanged sync is one read and no write.
     */
    async sync(projectId: string, pageId: string, components: ComponentInput[]) {
      checkDuplicates(components);
      const unchanged = diff(await repo.definitionsOfPage(db, projectId, pageId), components);
      if (unchanged.changed.length === 0) return { pageId, components: components.length, created: [] };

      return transactionWithChanges(db, bus, async (trx, changed) => {
        // Serialises syncs of one project (PostgreSQL), so two cannot both pass the caps below.
        await lockRow(trx, 'projects', projectId);
        const stored = await repo.definitionsOfPage(trx, projectId, pageId);
        const { changed: toWrite, added, byKey } = diff(stored, components);
        if (stored.length === 0 && (await repo.countPages(trx, projectId)) >= LIMITS.pagesPerProject) {
          throw limitReached(
            `This project already has ${LIMITS.pagesPerProject} pages, the most it can hold.`,
            LIMITS.pagesPerProject,
          );
        }
        if (stored.length + added.length > LIMITS.componentsPerPage) {
          throw limitReached(
            `A page holds at most ${LIMITS.componentsPerPage} components; this sync would make ${stored.length + added.length}.`,
            LIMITS.componentsPerPage,
          );
        }
        const now = isoNow();
        await repo.upsertDefinitions(
          trx,
          toWrite.map((c) => ({
            projectId,
            pageId,
            instanceKey: c.instanceKey,
            componentId: c.componentId,
            fields: fieldsJson(c),
            createdAt: byKey.get(c.instanceKey)?.createdAt ?? now,
            updatedAt: now,
          })),
        );
        const created = await entries.create(trx, { projectId, pageId }, toWrite, now);
        // A live entry whose component changed shows differently to visitors: drop the cached page.
        let liveChanged = false;
        for (const c of toWrite) {
          const prior = byKey.get(c.instanceKey);
          if (!prior || prior.componentId === c.componentId) continue;
          const { live } = await entries.changeComponent(
            trx,
            { projectId, pageId, instanceKey: c.instanceKey },
            c.componentId,
            now,
          );
          liveChanged ||= live;
        }
        if (liveChanged) {
          await changed(TOPICS.page, pageKey(projectId, pageId));
          await changed(TOPICS.snapshot, projectId);
        }
        const createdSet = new Set(created);
        return {
          pageId,
          components: components.length,
          created: components.map((c) => c.instanceKey).filter((k) => createdSet.has(k)),
        };
      });
    },

    async ofPage(projectId: string, pageId: string) {
      const rows = await repo.definitionsOfPage(db, projectId, pageId);
      return rows
        .sort((a, b) => byCodeUnits(a.instanceKey, b.instanceKey))
        .map((r) => ({
          componentId: r.componentId,
          instanceKey: r.instanceKey,
          fields: JSON.parse(r.fields) as { key: string; type: string }[],
          updatedAt: r.updatedAt,
        }));
    },
  };
}

export type DefinitionsService = ReturnType<typeof createDefinitionsService>;
