import type { Db, Tx } from '../../db/database.js';
import { type ChangeBus, pageKey, TOPICS, transactionWithChanges } from '../../db/dialect/change-bus.js';
import { lockRow } from '../../db/dialect/index.js';
import { actorLabel, type Outbox } from '../../outbox/index.js';
import {
  AppError,
  type FieldProblem,
  forbidden,
  rulesTooCostly,
  validationFailed,
} from '../../shared/errors.js';
import { pageIdProblem } from '../../shared/page-ids.js';
import type { ActivityActor } from '../../shared/principals.js';
import { isoNow } from '../../shared/time.js';
import type { WindowLimiter } from '../rate-limits/index.js';
import * as repo from './definitions.repository.js';
import type { DefinitionRow } from './definitions.table.js';
import { checkDeclarations, defaultsOf } from './field-declarations.js';
import { LIMITS } from './limits.js';
import { pageOrder } from './page-order.js';
import { RuleBudget } from './rule-budget.js';
import {
  type ComponentInput,
  type FieldDeclaration,
  fieldsJson,
  planSync,
  type StoredDefinition,
  type SyncScope,
} from './sync-plan.js';

/** What a publishable-key sync may do in a project (the project's `definitionSync`, contract §11). */
export type SyncMode = 'additive' | 'locked' | 'open';

/**
 * Who is syncing: `site` is the publishable key (public, so bounded by the project's mode and the
 * sync limit); `member` is a member's session or a write secret key, which may change everything.
 */
export type SyncCaller = 'site' | 'member';

export interface DefinitionsDeps {
  /** The project's definitionSync mode (owned by the projects module). */
  modeOf(projectId: string): Promise<SyncMode>;
  /** The shared per-project limit on publishable-key syncs (CMS_SYNC_LIMIT_PER_MINUTE). */
  limiter: WindowLimiter;
  /** Pages one project may hold (CMS_MAX_PAGES_PER_PROJECT), counted by EntryStubs.countPages. */
  maxPages: number;
  /** CMS_RULES_BUDGET_MS (contract §23): what one sync's rule checks may spend; absent: the default. */
  rulesBudgetMs?: number;
}

/**
 * What a sync needs of the content module, handed over in app.ts (content depends on definitions
 * for field types, so definitions must not import content back): each definition has an entry.
 */
export interface EntryStubs {
  /**
   * Creates a draft entry for each component that has none, its working copy the declared `defaults`
   * (§13; empty without any); returns the instance keys created. A component's `entryId` (a member's
   * sync, e.g. an import) is the new entry's id unless an entry of any project holds it (then a new one).
   */
  create(
    trx: Tx,
    page: { projectId: string; pageId: string },
    components: {
      instanceKey: string;
      componentId: string;
      defaults: Record<string, unknown>;
      entryId?: string | undefined;
    }[],
    now: string,
  ): Promise<string[]>;
  /** The ids of the page's entries at `instanceKeys` (what a sync that asked for ids answers). */
  idsOf(
    db: Db | Tx,
    key: { projectId: string; pageId: string },
    instanceKeys: string[],
  ): Promise<Map<string, string>>;
  /** The project's pages (with a definition or an entry), for the page cap. */
  countPages(trx: Tx, projectId: string): Promise<number>;
  /** Moves the entry to a changed component; `live` when it was published (visitors see the change). */
  changeComponent(
    trx: Tx,
    key: { projectId: string; pageId: string; instanceKey: string },
    componentId: string,
    now: string,
  ): Promise<{ live: boolean }>;
}

/**
 * The declarations of one component instance, from its definition's `fields` column (null: none
 * declared, an empty map). Content reads that column with the entry it locks.
 */
export { declarationsOf } from './field-values.js';

/**
 * What the content module needs of definitions for pages (handed over in app.ts): the per-page
 * summary of GET /v1/pages, removing the definitions of a deleted entry or page, and whether a page
 * has any (a page exists while it has an entry or a definition).
 */
export const pageDefinitions = {
  summaries: repo.definitionPageSummaries,
  remove: repo.deleteDefinitions,
  exists: repo.pageHasDefinitions,
};

/** The 403 of a publishable-key sync on a `locked` project (also the document's example). */
export const syncLocked = () =>
  forbidden(
    "This project's definitions are locked: the publishable key cannot sync them. Sync with a member's session or a write secret key, or set definitionSync to additive.",
  );

const limitReached = (message: string, limit: number) => new AppError('conflict', 409, message, { limit });

/** A page id a sync may register (contract §15, §17); pages stored before the rules are still read. */
function checkPageId(pageId: string): void {
  const problem = pageIdProblem(pageId);
  if (problem) throw validationFailed(`The page id ${problem}.`, [{ path: 'body.pageId', message: problem }]);
}

/**
 * Duplicates inside one request, and declarations that break §13, are the caller's mistake: say
 * which (400). Patterns compile, and defaults are checked against them, within one rule budget for
 * the whole sync (contract §23): a sync it cannot check within it is 422, nothing written.
 */
function checkComponents(components: ComponentInput[], budget: RuleBudget): void {
  const problems: FieldProblem[] = [];
  const keys = new Set<string>();
  components.forEach((c, i) => {
    if (keys.has(c.instanceKey))
      problems.push({ path: `body.components[${i}].instanceKey`, message: 'is sent twice' });
    keys.add(c.instanceKey);
    const fieldKeys = new Set<string>();
    c.fields.forEach((f, j) => {
      if (fieldKeys.has(f.key))
        problems.push({ path: `body.components[${i}].fields[${j}].key`, message: 'is declared twice' });
      // No value could ever be written to it: a JSON body with the key `__proto__` is refused where
      // it is parsed (contract §23), and an accumulator assigning it would set a prototype instead.
      if (f.key === '__proto__')
        problems.push({
          path: `body.components[${i}].fields[${j}].key`,
          message: 'is reserved: "__proto__" cannot be a field key (a body carrying it is refused)',
        });
      fieldKeys.add(f.key);
    });
    problems.push(...checkDeclarations(c.fields, `body.components[${i}].fields`, budget));
  });
  if (budget.ranOut) throw rulesTooCostly(budget.ms, problems);
  if (problems.length > 0) throw validationFailed('The components are not valid.', problems);
}

/** A component as a sync receives it: a member may ask for the id of the entry it creates. */
export type SyncComponent = ComponentInput & { entryId?: string | undefined };

/**
 * The entry ids a sync asks for, by instanceKey (none: an empty map, and the sync runs as before).
 * Only a member may ask (an import keeping its ids): the publishable key is public, and ids are
 * chosen by the server for everyone else. An id asked for twice in one request is the caller's mistake.
 */
function requestedEntryIds(components: SyncComponent[], actor: ActivityActor): Map<string, string> {
  const requested = new Map<string, string>();
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  components.forEach((c, i) => {
    if (c.entryId === undefined) return;
    if (seen.has(c.entryId))
      problems.push({ path: `body.components[${i}].entryId`, message: 'is sent twice' });
    seen.add(c.entryId);
    requested.set(c.instanceKey, c.entryId);
  });
  if (requested.size > 0 && actor.type === 'site') throw entryIdNeedsMember();
  if (problems.length > 0) throw validationFailed('The components are not valid.', problems);
  return requested;
}

/** The 403 of a publishable-key sync that asks for entry ids (also the document's example). */
export const entryIdNeedsMember = () =>
  forbidden(
    "Only a member's session or a write secret key may choose entry ids (entryId): the publishable key's syncs get ids the server makes.",
  );

/**
 * The components sent with an `entryId` whose entry does not have it: the id was held by an entry
 * (of this project or any other: the answer is the same), or the entry existed already.
 */
function changedIds(requested: Map<string, string>, ids: Map<string, string>) {
  // Absent when none was asked for: the answer of every other sync is as before.
  if (requested.size === 0) return {};
  const changed = [...requested]
    .filter(([instanceKey, id]) => ids.get(instanceKey) !== id)
    .map(([instanceKey, id]) => ({ instanceKey, requested: id, id: ids.get(instanceKey) ?? '' }));
  return { changedIds: changed };
}

const toStored = (row: DefinitionRow): StoredDefinition => ({
  instanceKey: row.instanceKey,
  componentId: row.componentId,
  fields: JSON.parse(row.fields) as FieldDeclaration[],
});

/**
 * Where each component of the page goes after a sync that sends `components` (page-order.ts):
 * `positions` for every one, `moves` only where a stored position changes or a component is new.
 */
function positionsFor(stored: DefinitionRow[], components: ComponentInput[]) {
  const current = [...stored].sort(repo.byPosition);
  const order = pageOrder(
    current.map((d) => d.instanceKey),
    components.map((c) => c.instanceKey),
  );
  const positions = new Map(order.map((key, i) => [key, i]));
  const was = new Map(current.map((d) => [d.instanceKey, d.position]));
  const moves = new Map([...positions].filter(([key, position]) => was.get(key) !== position));
  return { positions, moves };
}

export interface SyncRequest {
  pageId: string;
  components: SyncComponent[];
  /** The site (publishable key alone), a member's session or a secret key: see SyncCaller. */
  actor: ActivityActor;
  dryRun: boolean;
  /** What `admit` answered for this caller; the route asks it before reading the body. */
  scope: SyncScope;
}

export function createDefinitionsService(
  db: Db,
  outbox: Outbox,
  bus: ChangeBus,
  entries: EntryStubs,
  deps: DefinitionsDeps,
) {
  const { recordActivity } = outbox;

  return {
    /**
     * Whether the caller may sync at all, and how far: the publishable key's bounds are the
     * project's mode (locked: 403) and the shared sync limit (429); a member may change everything.
     * The route asks before the body is read (contract §23 "cheap refusals"): a refused sync costs
     * one indexed read and one counted hit, never the parse and checks of a body up to 1 MB, and a
     * `default` is checked against its rules (checkComponents) only once the sync is admitted.
     */
    async admit(projectId: string, caller: SyncCaller): Promise<SyncScope> {
      if (caller === 'member') return 'full';
      const mode = await deps.modeOf(projectId);
      if (mode === 'locked') {
        throw syncLocked();
      }
      await deps.limiter.hit(projectId);
      return mode === 'open' ? 'full' : 'additive';
    },

    /**
     * Upserts each sent (pageId, instanceKey) definition as far as the caller may change it (see
     * sync-plan.ts) and creates a stub entry where none exists; definitions not sent are kept. The
     * SDK may call this on every mount, so an unchanged sync is one read and no write.
     */
    async sync(projectId: string, request: SyncRequest) {
      const { pageId, components, scope } = request;
      checkPageId(pageId);
      checkComponents(components, new RuleBudget(deps.rulesBudgetMs));
      const requested = requestedEntryIds(components, request.actor);
      const read = await repo.definitionsOfPage(db, projectId, pageId);
      const plan = planSync(read.map(toStored), components, scope);
      if (request.dryRun) {
        return { pageId, created: plan.created, changed: plan.changed, rejected: plan.rejected };
      }
      if (plan.writes.length === 0 && positionsFor(read, components).moves.size === 0) {
        // Nothing to write; ids asked for are answered as the entries have them (one read, only then).
        const ids =
          requested.size === 0
            ? new Map()
            : await entries.idsOf(db, { projectId, pageId }, [...requested.keys()]);
        return {
          pageId,
          components: components.length,
          created: [],
          rejected: plan.rejected,
          ...changedIds(requested, ids),
        };
      }

      return transactionWithChanges(db, bus, async (trx, changed) => {
        // Serialises syncs of one project (PostgreSQL), so two cannot both pass the caps below.
        await lockRow(trx, 'projects', projectId);
        const storedRows = await repo.definitionsOfPage(trx, projectId, pageId);
        // Planned again under the lock: another sync may have written since the read above.
        const { writes, rejected } = planSync(storedRows.map(toStored), components, scope);
        const added = writes.filter((w) => w.isNew).length;
        if (storedRows.length === 0 && (await entries.countPages(trx, projectId)) >= deps.maxPages) {
          throw limitReached(
            `This project already has ${deps.maxPages} pages, the most it can hold.`,
            deps.maxPages,
          );
        }
        if (storedRows.length + added > LIMITS.componentsPerPage) {
          throw limitReached(
            `A page holds at most ${LIMITS.componentsPerPage} components; this sync would make ${storedRows.length + added}.`,
            LIMITS.componentsPerPage,
          );
        }
        const now = isoNow();
        const createdAt = new Map(storedRows.map((d) => [d.instanceKey, d.createdAt]));
        const { positions, moves } = positionsFor(storedRows, components);
        const written = new Set(writes.map((w) => w.instanceKey));
        await repo.upsertDefinitions(
          trx,
          writes.map((w) => ({
            projectId,
            pageId,
            instanceKey: w.instanceKey,
            componentId: w.componentId,
            fields: fieldsJson(w.fields),
            position: positions.get(w.instanceKey) ?? 0,
            createdAt: createdAt.get(w.instanceKey) ?? now,
            updatedAt: now,
          })),
        );
        const reordered = new Map([...moves].filter(([key]) => !written.has(key)));
        await repo.setPositions(trx, projectId, pageId, reordered);
        const created = await entries.create(
          trx,
          { projectId, pageId },
          writes.map((w) => ({
            ...w,
            defaults: defaultsOf(w.fields),
            entryId: requested.get(w.instanceKey),
          })),
          now,
        );
        // A live entry whose component changed shows differently to visitors: drop the cached page.
        // Only a full sync gets here with a new componentId; an additive one keeps the stored one.
        const priorComponent = new Map(storedRows.map((d) => [d.instanceKey, d.componentId]));
        let liveChanged = false;
        let componentChanged = false;
        for (const w of writes) {
          const prior = priorComponent.get(w.instanceKey);
          if (prior === undefined || prior === w.componentId) continue;
          componentChanged = true;
          const { live } = await entries.changeComponent(
            trx,
            { projectId, pageId, instanceKey: w.instanceKey },
            w.componentId,
            now,
          );
          liveChanged ||= live;
        }
        // Which fields are references decides how the page's references are resolved for visitors
        // (contract §13): a changed declaration that involves one drops the cached page too.
        const storedFields = new Map(storedRows.map((d) => [d.instanceKey, d.fields]));
        const referencesChanged = writes.some(
          (w) =>
            fieldsJson(w.fields).includes('"type":"reference"') ||
            (storedFields.get(w.instanceKey) ?? '').includes('"type":"reference"'),
        );
        if (liveChanged || referencesChanged) {
          await changed(TOPICS.page, pageKey(projectId, pageId));
          await changed(TOPICS.snapshot, projectId);
        } else if (created.length > 0 || componentChanged) {
          await changed(TOPICS.draft, pageKey(projectId, pageId)); // new stubs: preview streams
        }
        // Visitors' cached page lists its entries in page order: a new order drops it (not the
        // snapshot, which lists entries by key).
        const orderChanged = storedRows.some((d) => moves.has(d.instanceKey));
        if (orderChanged && !liveChanged) await changed(TOPICS.page, pageKey(projectId, pageId));
        const createdSet = new Set(created);
        const changedCount = writes.length - added;
        await recordActivity(trx, projectId, request.actor, {
          action: 'definitions.synced',
          target: { type: 'page', id: pageId },
          summary: `${actorLabel(request.actor)} synced the definitions of ${pageId}: ${added} added, ${changedCount} changed${orderChanged ? ', order changed' : ''}.`,
        });
        const ids =
          requested.size === 0
            ? new Map<string, string>()
            : await entries.idsOf(trx, { projectId, pageId }, [...requested.keys()]);
        return {
          pageId,
          components: components.length,
          created: components.map((c) => c.instanceKey).filter((k) => createdSet.has(k)),
          rejected,
          ...changedIds(requested, ids),
        };
      });
    },

    async ofPage(projectId: string, pageId: string) {
      const rows = await repo.definitionsOfPage(db, projectId, pageId);
      return rows.sort(repo.byPosition).map((r) => ({
        componentId: r.componentId,
        instanceKey: r.instanceKey,
        fields: JSON.parse(r.fields) as FieldDeclaration[],
        updatedAt: r.updatedAt,
      }));
    },
  };
}

export type DefinitionsService = ReturnType<typeof createDefinitionsService>;
