import type { Db, DbOrTx, Tx } from '../../db/database.js';
import {
  type ChangeBus,
  type Changed,
  collectChanges,
  pageKey,
  TOPICS,
  transactionWithChanges,
} from '../../db/dialect/change-bus.js';
import { fromConstraint } from '../../db/dialect/constraints.js';
import { dialectOf } from '../../db/dialect/index.js';
import {
  runSideWrites,
  type SideWrite,
  writeTogether,
  writeTogetherIfMatched,
} from '../../db/dialect/together.js';
import { createStatementTemplates } from '../../db/statement-templates.js';
import { actorLabel, type Outbox } from '../../outbox/index.js';
import { byCodeUnits, canonicalJson } from '../../shared/canonical.js';
import { decodeCursor } from '../../shared/cursor.js';
import { type FieldProblem, notFound, preconditionFailed, validationFailed } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { type Locales, requestedLocale } from '../../shared/locales.js';
import { memberBehind, type SystemActor, type UserActor } from '../../shared/principals.js';
import { isoNow } from '../../shared/time.js';
import { type SessionCheck, sessionAllows, sessionCheckPassed, verifySessionCheck } from '../auth/index.js';
import {
  byPosition,
  checkWrite,
  type Declarations,
  type EntryStubs,
  holdsItems,
  LIMITS,
  RuleBudget,
} from '../definitions/index.js';
import * as repo from './content.repository.js';
import type { EntryRow, HistoryRow } from './content.table.js';
import { createEntryMemo } from './entry-memo.js';
import { createLocaleOperations, type LocaleContext } from './locale-operations.js';
import { workingTargetsIn } from './locale-reads.js';
import { localizedKeys, publishedView } from './locale-slots.js';
import { slotRowsOf } from './locales.repository.js';
import { type PageViews, pageViews, visitorViewIn } from './page-views.js';
import { countPages, registerPage } from './pages.repository.js';
import {
  assertPublishable,
  checkReferenceTargets,
  type EntryProblem,
  problemsOfRows,
} from './publish-rules.js';
import { createPublishedPages } from './published-pages.js';
import { referenceTargets } from './reference-targets.js';
import { DEFAULT_DEPTH, DEFAULT_RESOLVE_MAX_BYTES, resolveReferences } from './references.js';
import { referencesOf } from './referrers.js';

export type Fields = Record<string, unknown>;

export interface Entry {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  fields: Fields;
  status: 'draft' | 'published';
  publishedAt: string | null;
  updatedAt: string;
  version: number;
  /** Editor reads only: what would stop its publish now (contract §13); `[]` when nothing would. */
  problems?: EntryProblem[];
  /**
   * The locale read and each locale's status (contract §14). Absent in a project without locales (the
   * contract's null, left out so that such a project answers byte for byte as before: issue 35).
   */
  locale?: string | null;
  locales?: Record<
    string,
    /** `version`: a member's read only (contract §17), what `If-Match` on a write in that locale compares. */
    { status: 'draft' | 'published'; publishedAt: string | null; version?: number }
  > | null;
  /** Editor reads in a project with locales: the fields whose value came from another locale. */
  fallbacks?: Record<string, string>;
}

/** Who edits content: a member, or scheduled work on a member's behalf. */
export type Actor = UserActor | SystemActor;

/** An entry's new state and the rows that go with it, built and not yet run (planUpdate). */
interface UpdatePlan {
  set: Parameters<typeof repo.updateEntryQuery>[2];
  published: 'set' | undefined;
  inserts: SideWrite[];
}

/** How summaries name an entry: "hero (Hero) on /". */
export const describeEntry = (row: Pick<EntryRow, 'instanceKey' | 'componentId' | 'pageId'>): string =>
  `${row.instanceKey} (${row.componentId}) on ${row.pageId}`;

/** An editor's view: the working copy; `published` only while it equals the published copy. */
export function toEntry(row: EntryRow): Entry {
  return {
    id: row.id,
    pageId: row.pageId,
    instanceKey: row.instanceKey,
    componentId: row.componentId,
    fields: JSON.parse(row.fields) as Fields,
    status: row.publishedFields !== null && row.publishedFields === row.fields ? 'published' : 'draft',
    publishedAt: row.publishedAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

function toHistory(row: HistoryRow) {
  return {
    id: row.id,
    entryId: row.entryId,
    action: row.action,
    fields: JSON.parse(row.fields) as Fields,
    locale: row.locale,
    actor: { id: row.actorId, email: row.actorEmail },
    at: row.at,
  };
}

/**
 * The shape of `content.published` / `content.unpublished` event data (contract §4), stable for
 * webhook consumers: `{ projectId, pageId, entries: [{ id, instanceKey, componentId, fields,
 * publishedAt }], actor: { id, email } }`. On unpublish `fields` and `publishedAt` are null.
 */
function eventEntry(row: EntryRow) {
  return {
    id: row.id,
    instanceKey: row.instanceKey,
    componentId: row.componentId,
    fields: row.publishedFields === null ? null : (JSON.parse(row.publishedFields) as Fields),
    publishedAt: row.publishedAt,
  };
}

/** What content needs of the definitions and projects modules (handed over in app.ts and the worker). */
export interface DeclaredTypes {
  /** The declarations of an entry's fields, from a definition's `fields` column (null: no definition), read with the entry. */
  declarationsOf(definitionFields: string | null): Declarations;
  /** The project's locales (contract §14; the site cache in the HTTP process); absent: none anywhere. */
  localesOf?(reader: DbOrTx, projectId: string): Promise<Locales | null>;
  /** CMS_RULES_BUDGET_MS (contract §23): what one operation's rule checks may spend; absent: the default. */
  rulesBudgetMs?: number;
}

/**
 * Checks what a write brings against the declarations (field-values.ts: shapes, `_key`s assigned in
 * place) and the size limits; 400 listing every problem. Returns the references written, for their
 * targets' check.
 */
function checkFields(declared: Declarations, values: Fields, merged: Fields) {
  const problems: FieldProblem[] = [];
  const sized: Fields = {};
  for (const [key, value] of Object.entries(values)) {
    const path = `body.fields.${key}`;
    if (key.length === 0 || key.length > LIMITS.keyLength) {
      problems.push({ path, message: `field keys must be 1 to ${LIMITS.keyLength} characters` });
      continue;
    }
    if (value === null) continue;
    // A declared object, list or blocks value is bounded by the entry's size instead (§13).
    const bound = holdsItems(declared.get(key)) ? LIMITS.entryFieldsBytes : LIMITS.fieldValueBytes;
    if (Buffer.byteLength(JSON.stringify(value)) > bound) {
      problems.push({ path, message: `must be at most ${bound} bytes as JSON` });
      continue;
    }
    sized[key] = value;
  }
  if (Object.keys(merged).length > LIMITS.fieldsPerEntry) {
    problems.push({ path: 'body.fields', message: `an entry holds at most ${LIMITS.fieldsPerEntry} fields` });
  }
  const report = checkWrite(declared, sized, 'body.fields');
  problems.push(...report.problems);
  if (problems.length > 0) throw validationFailed('Some field values are not valid.', problems);
  return report.references;
}

/** The working copy as stored, refused when it passes the entry's size bound (§13: 1 MB as JSON). */
function boundedFields(fields: Fields): string {
  const text = canonicalJson(fields);
  const bytes = Buffer.byteLength(text);
  if (bytes > LIMITS.entryFieldsBytes) {
    throw validationFailed('Some field values are not valid.', [
      {
        path: 'body.fields',
        message: `an entry's fields are at most ${LIMITS.entryFieldsBytes} bytes as JSON, not ${bytes}`,
      },
    ]);
  }
  return text;
}

/**
 * The stub entries a definitions sync creates, and their component changes: the content module owns
 * the table, the definitions service calls these (wired in app.ts).
 */
export const entryStubs: EntryStubs = {
  create: async (trx, page, components, now) => {
    // Every sync that writes comes here: the page joins the project's list (GET /v1/pages) if new.
    await registerPage(trx, page.projectId, page.pageId);
    // A requested id (a member's sync: an import keeping ids) is used where no entry holds it.
    const requested = components.flatMap((c) => (c.entryId ? [c.entryId] : []));
    const taken = await repo.takenEntryIds(trx, requested);
    const stubs = repo.insertStubs(
      trx,
      components.map((c) => ({
        id: c.entryId && !taken.has(c.entryId) ? c.entryId : newId('ent'),
        projectId: page.projectId,
        pageId: page.pageId,
        instanceKey: c.instanceKey,
        componentId: c.componentId,
        // The declared defaults (§13), already checked at sync; none: an empty working copy as before.
        fields: Object.keys(c.defaults).length > 0 ? canonicalJson(c.defaults) : '{}',
        publishedFields: null,
        publishedAt: null,
        createdAt: now,
        updatedAt: now,
        version: 1,
        publishedVersion: null,
        sharedVersion: 0,
      })),
    );
    // Another project's sync may take a requested id between the check and the insert (PostgreSQL):
    // a 409 to sync again (then it is found taken), not a 500.
    return requested.length === 0
      ? stubs
      : stubs.catch((err: unknown) => {
          throw fromConstraint(err, { unique: 'A requested entry id was taken meanwhile: sync again.' });
        });
  },
  countPages,
  changeComponent: repo.setComponentId,
  idsOf: (db, key, instanceKeys) => repo.entryIdsOf(db, key.projectId, key.pageId, instanceKeys),
};

/**
 * The content changes as in-transaction operations: each runs inside its caller's transaction and
 * announces what it changed through `changed` (history, event, activity and cache topics included).
 * They need no connection or change bus of their own, so the worker builds them too (scheduled
 * publishing claims its schedule and acts in one transaction, so a crash between the two leaves
 * neither); createContentService wraps each in a transaction for the HTTP routes.
 */
export function createContentOperations(outbox: Outbox, definitions: DeclaredTypes) {
  const { activityWrite, eventWrite, recordActivity } = outbox;
  /** A new budget for one operation's rule checks (never shared between requests). */
  const rulesBudget = () => new RuleBudget(definitions.rulesBudgetMs);
  /**
   * Checks values against the entry's declarations and the limits (400 listing every problem),
   * then the targets of the references they write (checkReferenceTargets).
   */
  async function validate(reader: DbOrTx, row: repo.EntryForWrite, values: Fields, merged: Fields) {
    const written = checkFields(definitions.declarationsOf(row.declaredFields), values, merged);
    // §17: judged on what the write introduces. An id the same field already held (a target deleted
    // since) is not checked again; it reads as missing and counts as such at publish.
    const stored = [JSON.parse(row.fields) as Fields, JSON.parse(row.publishedFields ?? '{}') as Fields];
    const held = (r: { path: string; id: string }) => {
      const key = r.path.slice('body.fields.'.length).split(/[.[]/)[0] ?? '';
      return stored.some(
        // Own keys only (§23): a field named `constructor` found Object's and threw (a 500).
        (copy) => Object.hasOwn(copy, key) && JSON.stringify(copy[key]).includes(`"${r.id}"`),
      );
    };
    const references = written.filter((r) => !held(r));
    if (references.length === 0) return;
    const problems = await checkReferenceTargets(reader, row.projectId, references);
    if (problems.length > 0) throw validationFailed('Some field values are not valid.', problems);
  }

  /** The rule check of a publish of `working` (422 unpublishable, nothing written). */
  const checkPublishable = (reader: DbOrTx, row: repo.EntryForWrite, working: string) =>
    assertPublishable(
      reader,
      row.projectId,
      [{ id: row.id, fields: working, declared: definitions.declarationsOf(row.declaredFields) }],
      rulesBudget(),
    );

  /**
   * Locks the entry (PostgreSQL) so concurrent edits merge one after the other; 404 if not ours.
   * `ifMatch` (the version the caller last saw) is compared under that lock, so of two requests
   * carrying the same version exactly one passes: the second reads the first's committed version
   * (PostgreSQL waits on the row lock; SQLite runs one write transaction at a time) and gets 412.
   * The same statement reads the entry's declared field types and, with `check`, verifies the
   * session (src/modules/auth/session-check.ts) before anything is written.
   */
  async function lockedEntry(
    trx: Tx,
    projectId: string,
    entryId: string,
    ifMatch?: number,
    check?: SessionCheck,
  ): Promise<repo.EntryForWrite> {
    const row = await repo.findEntryForWrite(trx, projectId, entryId, check, isoNow());
    if (!row) throw notFound('Entry');
    verifySessionCheck(check, row.checkedRole);
    if (ifMatch !== undefined && ifMatch !== row.version) throw preconditionFailed(row.version);
    return row;
  }

  /**
   * The inserts that announce a publish or unpublish (history rows, the outbox event), not yet run,
   * and the cache topics it touches. `rows`: the entries as they are after the change.
   */
  async function announcement(
    changed: Changed,
    type: 'content.published' | 'content.unpublished',
    rows: EntryRow[],
    actor: Actor,
    now: string,
    /** Per row: the fields the history records (published, or taken down). */
    recorded: string[],
  ): Promise<SideWrite[]> {
    const first = rows[0];
    if (!first) return [];
    const member = memberBehind(actor);
    await changed(TOPICS.page, pageKey(first.projectId, first.pageId));
    await changed(TOPICS.snapshot, first.projectId);
    return [
      repo.historyWrite(
        rows.map((row, i) => ({
          id: newId('his'),
          projectId: row.projectId,
          entryId: row.id,
          action: type === 'content.published' ? 'publish' : 'unpublish',
          fields: recorded[i] ?? '{}',
          actorId: member.id,
          actorEmail: member.email,
          at: now,
          locale: null,
        })),
      ),
      eventWrite(first.projectId, type, {
        pageId: first.pageId,
        entries: rows.map(eventEntry),
        actor: member,
      }),
    ];
  }

  /**
   * The entry's new state and everything that goes with it (history, event, activity, change
   * notifications) in one statement on PostgreSQL (src/db/dialect/together.ts): the row lock taken by
   * lockedEntry is held for that one round trip and the commit.
   */
  async function writeEntry(
    trx: Tx,
    changed: Changed,
    row: EntryRow,
    set: Parameters<typeof repo.updateEntry>[2],
    published: 'set' | 'clear' | undefined,
    inserts: readonly SideWrite[],
  ): Promise<EntryRow> {
    const [updated] = await writeTogether<EntryRow>(
      trx,
      repo.updateEntryQuery(trx, row.id, set, published),
      inserts,
      changed.take(),
    );
    if (!updated) throw new Error(`entry ${row.id} vanished under its row lock`);
    return updated;
  }

  /**
   * What a PATCH makes of the entry `row`: null when nothing changes, else its new state and the rows
   * that go with it (built, not run). Shared by the locked write and the optimistic one (`update`).
   */
  async function planUpdate(
    reader: DbOrTx,
    changed: Changed,
    projectId: string,
    row: repo.EntryForWrite,
    patch: { fields?: Fields; status?: 'draft' | 'published' },
    actor: Actor,
  ): Promise<UpdatePlan | null> {
    const now = isoNow();
    let working = row.fields;
    if (patch.fields) {
      const merged = JSON.parse(row.fields) as Fields;
      for (const [key, value] of Object.entries(patch.fields)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      await validate(reader, row, patch.fields, merged);
      working = boundedFields(merged);
    }
    const publish = patch.status === 'published' && row.publishedFields !== working;
    if (working === row.fields && !publish) return null;
    if (publish) await checkPublishable(reader, row, working);
    if (!publish) {
      await changed(TOPICS.draft, pageKey(projectId, row.pageId)); // preview streams
      const activity = activityWrite(projectId, actor, {
        action: 'entry.updated',
        target: { type: 'entry', id: row.id },
        summary: `${actorLabel(actor)} saved a draft of ${describeEntry(row)}.`,
      });
      return { set: { fields: working, updatedAt: now }, published: undefined, inserts: [activity] };
    }
    // The entry after the update is known: the event and history need not wait for it.
    const after: EntryRow = {
      ...row,
      fields: working,
      publishedFields: working,
      publishedAt: now,
      updatedAt: now,
    };
    const inserts = await announcement(changed, 'content.published', [after], actor, now, [working]);
    inserts.push(
      activityWrite(projectId, actor, {
        action: 'entry.published',
        target: { type: 'entry', id: row.id },
        summary: `${actorLabel(actor)} ${working === row.fields ? 'published' : 'saved and published'} ${describeEntry(row)}.`,
      }),
    );
    const set = { fields: working, updatedAt: now, publishedFields: working, publishedAt: now };
    return { set, published: 'set', inserts };
  }

  /** The locked PATCH: the entry as it is after it (declared fields included, for the memo). */
  async function updateRowIn(
    trx: Tx,
    changed: Changed,
    projectId: string,
    entryId: string,
    patch: { fields?: Fields; status?: 'draft' | 'published' },
    actor: Actor,
    ifMatch?: number,
    check?: SessionCheck,
  ): Promise<repo.EntryForWrite> {
    const row = await lockedEntry(trx, projectId, entryId, ifMatch, check);
    const plan = await planUpdate(trx, changed, projectId, row, patch, actor);
    if (!plan) return row;
    const updated = await writeEntry(trx, changed, row, plan.set, plan.published, plan.inserts);
    return { ...updated, declaredFields: row.declaredFields };
  }

  async function bulkPublishIn(trx: Tx, changed: Changed, projectId: string, pageId: string, actor: Actor) {
    // All or nothing (§13): the drafts are checked, locked, before the one statement publishes them.
    const drafts = (await repo.entriesOfPageWithDeclarations(trx, projectId, pageId, true)).filter(
      (r) => r.publishedFields !== r.fields,
    );
    await assertPublishable(
      trx,
      projectId,
      drafts.map((r) => ({
        id: r.id,
        fields: r.fields,
        declared: definitions.declarationsOf(r.declaredFields),
      })),
      rulesBudget(),
    );
    const now = isoNow();
    const rows = await repo.publishDraftsOfPage(trx, projectId, pageId, now);
    rows.sort((a, b) => byCodeUnits(a.instanceKey, b.instanceKey));
    const recorded = rows.map((r) => r.fields);
    const inserts = await announcement(changed, 'content.published', rows, actor, now, recorded);
    await runSideWrites(trx, inserts);
    if (rows.length > 0) {
      await recordActivity(trx, projectId, actor, {
        action: 'page.published',
        target: { type: 'page', id: pageId },
        summary: `${actorLabel(actor)} published page ${pageId} (${rows.length} ${rows.length === 1 ? 'entry' : 'entries'}).`,
      });
    }
    return { pageId, published: rows.map((r) => r.id) };
  }

  async function unpublishIn(
    trx: Tx,
    changed: Changed,
    projectId: string,
    entryId: string,
    actor: Actor,
    ifMatch?: number,
  ): Promise<repo.EntryForWrite> {
    const row = await lockedEntry(trx, projectId, entryId, ifMatch);
    if (row.publishedFields === null) return row;
    const now = isoNow();
    const after: EntryRow = { ...row, publishedFields: null, publishedAt: null, updatedAt: now };
    const inserts = await announcement(changed, 'content.unpublished', [after], actor, now, [
      row.publishedFields,
    ]);
    inserts.push(
      activityWrite(projectId, actor, {
        action: 'entry.unpublished',
        target: { type: 'entry', id: row.id },
        summary: `${actorLabel(actor)} unpublished ${describeEntry(row)}.`,
      }),
    );
    const set = { publishedFields: null, publishedAt: null, updatedAt: now };
    const updated = await writeEntry(trx, changed, row, set, 'clear', inserts);
    return { ...updated, declaredFields: row.declaredFields };
  }

  /**
   * The entries as an editor reads them: with `problems` (one query at most for all, publish-rules.ts);
   * in a project with locales, as read in `ctx.code` (locale-operations.ts).
   */
  async function forEditor(
    reader: DbOrTx,
    rows: readonly repo.EntryWithDeclarations[],
    ctx: LocaleContext | null = null,
  ): Promise<Entry[]> {
    if (ctx) return locale.forEditor(reader, rows, ctx);
    const problems = await problemsOfRows(reader, rows, rulesBudget());
    return rows.map((r) => ({ ...toEntry(r), problems: problems.get(r.id) ?? [] }));
  }

  /**
   * The locale a request acts in: null in a project without locales (400 for a `locale` it cannot
   * have). `fallback` false: a member's read of the locale's own working copy (§14).
   */
  async function localeContext(
    reader: DbOrTx,
    projectId: string,
    asked: string | undefined,
    at: string,
    fallback = true,
  ): Promise<LocaleContext | null> {
    const locales = definitions.localesOf ? await definitions.localesOf(reader, projectId) : null;
    const code = requestedLocale(locales, asked, at);
    if (!locales || !code) return null;
    return fallback ? { locales, code } : { locales, code, fallback };
  }

  const locale = createLocaleOperations({
    outbox,
    declarationsOf: definitions.declarationsOf,
    rulesBudget,
    validate,
    lockedEntry,
    boundedFields,
    describeEntry,
  });

  return {
    validate,
    forEditor,
    localeContext,
    locale,
    lockedEntry,
    planUpdate,
    updateRowIn,
    bulkPublishIn,
    unpublishIn,
    /**
     * Scheduled work (schedules.jobs.ts), in `asked`'s locale (a code or `*`; none: the default) in a
     * project with locales. Publishes the entry's working copy as it is (a no-op when it is already the
     * published copy); `*` publishes every locale's, all or nothing.
     */
    async publishEntryIn(
      trx: Tx,
      changed: Changed,
      projectId: string,
      entryId: string,
      actor: Actor,
      asked?: string,
    ) {
      const every = asked === '*';
      const ctx = await localeContext(trx, projectId, every ? undefined : asked, 'body.locale');
      if (!ctx)
        return toEntry(await updateRowIn(trx, changed, projectId, entryId, { status: 'published' }, actor));
      const codes = every ? ctx.locales.available.map((l) => l.code) : [ctx.code];
      for (const code of codes) {
        await locale.updateIn(trx, changed, projectId, entryId, { status: 'published' }, actor, {
          ...ctx,
          code,
        });
      }
      return null;
    },
    async unpublishEntryIn(
      trx: Tx,
      changed: Changed,
      projectId: string,
      entryId: string,
      actor: Actor,
      asked?: string,
    ) {
      const every = asked === '*';
      const ctx = await localeContext(trx, projectId, every ? undefined : asked, 'body.locale');
      if (!ctx) return toEntry(await unpublishIn(trx, changed, projectId, entryId, actor));
      return locale.unpublishIn(trx, changed, projectId, entryId, actor, ctx, every);
    },
    async bulkPublishPageIn(
      trx: Tx,
      changed: Changed,
      projectId: string,
      pageId: string,
      actor: Actor,
      asked?: string,
    ) {
      const every = asked === '*';
      const ctx = await localeContext(trx, projectId, every ? undefined : asked, 'body.locale');
      if (!ctx) return bulkPublishIn(trx, changed, projectId, pageId, actor);
      const codes = every ? ctx.locales.available.map((l) => l.code) : [ctx.code];
      return locale.bulkPublishIn(trx, changed, projectId, pageId, actor, ctx.locales, codes);
    },
  };
}

export function createContentService(
  db: Db,
  outbox: Outbox,
  bus: ChangeBus,
  definitions: DeclaredTypes,
  /** Told when a statement template would not reproduce its build (a bug; the write still succeeds). */
  onTemplateMismatch?: (err: Error) => void,
  /** CMS_RESOLVE_MAX_BYTES: the JSON one answer's resolved references may hold (references.ts). */
  resolveMaxBytes = DEFAULT_RESOLVE_MAX_BYTES,
) {
  // Visitors' reads compose each entry in their locale (contract §14).
  const localesOf = async (projectId: string) => (await definitions.localesOf?.(db, projectId)) ?? null;
  const pages = createPublishedPages(db, bus, undefined, localesOf, resolveMaxBytes);
  const {
    forEditor,
    localeContext,
    locale,
    lockedEntry,
    planUpdate,
    updateRowIn,
    bulkPublishIn,
    unpublishIn,
    publishEntryIn,
    unpublishEntryIn,
    bulkPublishPageIn,
  } = createContentOperations(outbox, definitions);
  const { recordActivity } = outbox;
  const oneForEditor = async (row: repo.EntryWithDeclarations): Promise<Entry> =>
    (await forEditor(db, [row]))[0] as Entry;
  // PostgreSQL only: there a lock costs round trips (BEGIN, the locking read, COMMIT); SQLite's are in-process.
  const memo = dialectOf(db) === 'postgres' ? createEntryMemo() : null;
  // The optimistic PATCH's statement, compiled once per shape (src/db/statement-templates.ts).
  const templates = memo
    ? createStatementTemplates(db, onTemplateMismatch ? { onMismatch: onTemplateMismatch } : {})
    : null;

  /**
   * A PATCH of an entry this instance knows, in one statement and no transaction (PostgreSQL):
   * planned on the memo's copy, written only if the entry is still at that version, its definition
   * unchanged and the session still allowed (repo.updateEntryIfUnchanged, sessionAllows,
   * writeTogetherIfMatched). Why: the locked PATCH is four round trips (BEGIN, the locking read, the
   * write, COMMIT), whose socket writes alone were a fifth of the server's CPU per publish (issue 13,
   * bench/writes/README.md).
   * Undefined: the locked path decides (SQLite, nothing remembered, another If-Match, or what the
   * memo says would be a no-op or a validation error, which only fresh facts may answer). 'missed':
   * the statement matched nothing and wrote nothing.
   */
  async function optimisticUpdate(
    projectId: string,
    entryId: string,
    patch: { fields?: Fields; status?: 'draft' | 'published' },
    actor: Actor,
    ifMatch: number | undefined,
    check: SessionCheck | undefined,
  ): Promise<repo.EntryForWrite | 'missed' | undefined> {
    if (!memo || !templates) return undefined; // SQLite
    const row = memo.get(projectId, entryId);
    if (!row || (ifMatch !== undefined && ifMatch !== row.version)) return undefined;
    const changes = collectChanges(bus);
    let plan: Awaited<ReturnType<typeof planUpdate>>;
    try {
      plan = await planUpdate(db, changes.changed, projectId, row, patch, actor);
    } catch {
      return undefined; // judged on remembered facts: the locked path judges again on fresh ones
    }
    if (!plan) return undefined;
    const { published, set } = plan;
    const values = {
      projectId,
      read: { id: row.id, version: row.version, declaredFields: row.declaredFields },
      set,
      // Undefined, not null, without a session: the statement's shape follows it (statement-templates.ts).
      session: check && { tokenHash: check.tokenHash, projectId: check.projectId, roles: [...check.roles] },
      now: isoNow(),
    };
    const main = {
      shape: `published=${published ?? 'unchanged'}`,
      values,
      build: (db: Db, v: typeof values) =>
        repo
          .updateEntryIfUnchanged(db, v.projectId, v.read, v.set, published)
          .$if(v.session !== undefined, (q) => q.where(sessionAllows(db, v.session as SessionCheck, v.now))),
    };
    const [written] =
      (await writeTogetherIfMatched<EntryRow, typeof values>(
        db,
        templates,
        main,
        plan.inserts,
        changes.changed.take(),
      )) ?? [];
    if (!written) return 'missed';
    sessionCheckPassed(check);
    changes.deliverLocal();
    const after = { ...written, declaredFields: row.declaredFields };
    memo.remember(after);
    return after;
  }

  /** The editor's view of `rows` with references resolved against working copies (contract §13). */
  async function resolvedForEditor(
    projectId: string,
    rows: readonly repo.EntryWithDeclarations[],
    depth: number,
    ctx: LocaleContext | null,
  ): Promise<Entry[]> {
    const entries = await forEditor(db, rows, ctx);
    const roots = rows.map((r, i) => ({
      id: r.id,
      fields: (entries[i] as Entry).fields,
      declared: definitions.declarationsOf(r.declaredFields),
    }));
    // In a locale, the targets' working copies in it (contract §14: references resolve in the reader's locale).
    const targets = ctx
      ? workingTargetsIn(db, projectId, ctx.locales, ctx.code, ctx.fallback !== false)
      : referenceTargets(db, projectId, 'working');
    const { fields } = await resolveReferences(roots, depth, targets, resolveMaxBytes);
    return entries.map((e, i) => ({ ...e, fields: fields[i] as Fields }));
  }

  return {
    publishedPage: pages.page,
    /**
     * The page as visitors read it in the locale `?locale=` asks (contract §14; 400 at query.locale
     * for a code the project lacks, or any locale in a project without locales); none asked: the
     * default locale, under the same key as before languages.
     */
    async publishedPageIn(
      projectId: string,
      pageId: string,
      depth: number | undefined,
      asked: string | undefined,
      fallback: boolean,
    ) {
      if (asked === undefined) return pages.page(projectId, pageId, depth);
      const code = requestedLocale(await localesOf(projectId), asked, 'query.locale');
      return pages.page(projectId, pageId, depth, code ?? undefined, fallback);
    },
    peekPage: pages.peek,
    cacheCounts: pages.cacheCounts,

    /**
     * Every view of one page for live streams (page-views.ts): in a project with locales, visitors'
     * in `locale` (a project code; undefined: the default) through its chain, and the editors' and
     * preview tokens' working copies in it as editor reads give them.
     */
    async pageViews(
      projectId: string,
      pageId: string,
      drafts: boolean,
      depth: number,
      locale?: string,
      fallback = true,
    ): Promise<PageViews> {
      const locales = await localesOf(projectId);
      if (locales === null)
        return pageViews(
          db,
          projectId,
          pageId,
          drafts ? new RuleBudget(definitions.rulesBudgetMs) : null,
          depth,
          resolveMaxBytes,
        );
      const [visitor, editor, preview] = await Promise.all([
        visitorViewIn(db, projectId, pageId, depth, locales, locale, fallback, resolveMaxBytes),
        drafts ? this.entriesForEditor(projectId, pageId, locale, fallback) : null,
        drafts ? this.entriesResolved(projectId, pageId, depth, locale, fallback) : null,
      ]);
      return { visitor: visitor.entries, editor, preview, pages: visitor.pages, chain: visitor.chain };
    },

    /**
     * One entry as a member's session (or a preview token) sees it on its page: the working copy (in
     * `asked`'s locale; `fallback` false: its own copy, §14).
     */
    async entryForEditor(
      projectId: string,
      entryId: string,
      asked?: string,
      fallback = true,
    ): Promise<Entry> {
      const ctx = await localeContext(db, projectId, asked, 'query.locale', fallback);
      const row = await repo.findEntryWithDeclarations(db, projectId, entryId);
      if (!row) throw notFound('Entry');
      return (await forEditor(db, [row], ctx))[0] as Entry;
    },

    async entriesForEditor(
      projectId: string,
      pageId: string,
      asked?: string,
      fallback = true,
    ): Promise<Entry[]> {
      const ctx = await localeContext(db, projectId, asked, 'query.locale', fallback);
      const rows = await repo.entriesOfPageWithDeclarations(db, projectId, pageId);
      rows.sort(byPosition);
      return forEditor(db, rows, ctx);
    },

    /**
     * The editor's view with references resolved against working copies (a preview token, or a
     * session that asks `?resolve=true`; contract §13): not cached, as editor reads never are.
     */
    async entriesResolved(
      projectId: string,
      pageId: string,
      depth = DEFAULT_DEPTH,
      asked?: string,
      fallback = true,
    ): Promise<Entry[]> {
      const ctx = await localeContext(db, projectId, asked, 'query.locale', fallback);
      const rows = await repo.entriesOfPageWithDeclarations(db, projectId, pageId);
      rows.sort(byPosition);
      return resolvedForEditor(projectId, rows, depth, ctx);
    },

    /** One entry as a preview token (or a session with `?resolve=true`) reads it: GET /v1/entries/:entryId. */
    async entryResolved(
      projectId: string,
      entryId: string,
      depth = DEFAULT_DEPTH,
      asked?: string,
      fallback = true,
    ): Promise<Entry> {
      const ctx = await localeContext(db, projectId, asked, 'query.locale', fallback);
      const row = await repo.findEntryWithDeclarations(db, projectId, entryId);
      if (!row) throw notFound('Entry');
      return (await resolvedForEditor(projectId, [row], depth, ctx))[0] as Entry;
    },

    /**
     * A member's `?copy=published` read (contract §14 storage, for export and import): each entry's
     * published copy as stored, reference ids and all, in `asked`'s locale (`fallback: false`: that
     * locale's own copies only); entries with no published copy there are left out.
     */
    async publishedAsStored(
      projectId: string,
      pageId: string,
      asked?: string,
      fallback = true,
    ): Promise<Entry[]> {
      const ctx = await localeContext(db, projectId, asked, 'query.locale');
      const rows = await repo.entriesOfPageWithDeclarations(db, projectId, pageId);
      rows.sort(byPosition);
      if (!ctx) {
        return rows.flatMap((r) =>
          r.publishedFields === null
            ? []
            : [
                {
                  ...toEntry(r),
                  fields: JSON.parse(r.publishedFields) as Fields,
                  status: 'published' as const,
                  updatedAt: r.publishedAt ?? r.updatedAt,
                  version: r.publishedVersion ?? r.version,
                },
              ],
        );
      }
      const others = await slotRowsOf(
        db,
        projectId,
        rows.map((r) => r.id),
      );
      return rows.flatMap((r) => {
        const slots = { entry: r, others: others.get(r.id) ?? new Map() };
        const localized = localizedKeys(definitions.declarationsOf(r.declaredFields));
        const view = publishedView(slots, ctx.locales, ctx.code, localized, fallback);
        if (!view) return [];
        return [
          {
            ...toEntry(r),
            fields: view.fields,
            status: 'published' as const,
            publishedAt: view.publishedAt,
            updatedAt: view.publishedAt,
            version: view.version,
            locale: ctx.code,
          },
        ];
      });
    },

    /** `GET /v1/content/:entryId/references`: who refers to the entry, in which copy and where. */
    async references(projectId: string, entryId: string) {
      if (!(await repo.findEntry(db, projectId, entryId))) throw notFound('Entry');
      const locales = definitions.localesOf ? await definitions.localesOf(db, projectId) : null;
      return referencesOf(db, projectId, [entryId], 'any', definitions.declarationsOf, locales);
    },

    /**
     * Merges `fields` into the working copy (a null value removes the key), then publishes it when
     * `status` is "published". "draft" only saves: a live entry stays live with its published copy.
     * On PostgreSQL an entry this instance knows is written optimistically first (optimisticUpdate);
     * everything else, and every miss, takes the locked transaction.
     */
    async update(
      projectId: string,
      entryId: string,
      patch: { fields?: Fields; status?: 'draft' | 'published' },
      actor: Actor,
      ifMatch?: number,
      /** The auth hook's deferred session check, verified by the write's first statement. */
      check?: SessionCheck,
      /** `?locale=` as asked (contract §14). */
      asked?: string,
    ): Promise<Entry> {
      const ctx = await localeContext(db, projectId, asked, 'query.locale');
      if (ctx) {
        // A project with locales takes the locked path: its writes touch the entry and its locale's row.
        return transactionWithChanges(db, bus, (trx, changed) =>
          locale.updateIn(trx, changed, projectId, entryId, patch, actor, ctx, ifMatch, check),
        );
      }
      const optimistic = await optimisticUpdate(projectId, entryId, patch, actor, ifMatch, check);
      if (optimistic && optimistic !== 'missed') return oneForEditor(optimistic);
      const row = await transactionWithChanges(db, bus, (trx, changed) =>
        updateRowIn(trx, changed, projectId, entryId, patch, actor, ifMatch, check),
      );
      memo?.remember(row, optimistic === 'missed');
      return oneForEditor(row);
    },

    /**
     * Publishes every draft of the page in one transaction: one event for the page. With locales, in
     * `asked` (a code, or `*` for every locale; default: the default locale).
     */
    async bulkPublish(
      projectId: string,
      pageId: string,
      actor: Actor,
      asked?: string,
    ): Promise<{ pageId: string; published: string[]; locales?: string[] }> {
      const every = asked === '*';
      const ctx = await localeContext(db, projectId, every ? undefined : asked, 'body.locale');
      if (every && !ctx) requestedLocale(null, asked, 'body.locale'); // `*` without locales: 400
      return transactionWithChanges(db, bus, (trx, changed) =>
        ctx
          ? locale.bulkPublishIn(
              trx,
              changed,
              projectId,
              pageId,
              actor,
              ctx.locales,
              every ? ctx.locales.available.map((l) => l.code) : [ctx.code],
            )
          : bulkPublishIn(trx, changed, projectId, pageId, actor),
      );
    },

    /**
     * Removes the published copy; the working copy stays. Unpublishing a draft-only entry is a no-op.
     * With locales, in `asked` (a code, or `*` for every locale).
     */
    async unpublish(
      projectId: string,
      entryId: string,
      actor: Actor,
      ifMatch?: number,
      asked?: string,
    ): Promise<Entry> {
      const every = asked === '*';
      const ctx = await localeContext(db, projectId, every ? undefined : asked, 'query.locale');
      if (every && !ctx) requestedLocale(null, asked, 'query.locale');
      if (ctx) {
        return transactionWithChanges(db, bus, (trx, changed) =>
          locale.unpublishIn(trx, changed, projectId, entryId, actor, ctx, every, ifMatch),
        );
      }
      const row = await transactionWithChanges(db, bus, (trx, changed) =>
        unpublishIn(trx, changed, projectId, entryId, actor, ifMatch),
      );
      return oneForEditor(row);
    },

    /** The same operations inside a caller's transaction (see createContentOperations). */
    publishEntryIn,
    bulkPublishIn: bulkPublishPageIn,
    unpublishIn: unpublishEntryIn,

    /** One page of the entry's history, newest first, with one row more than `limit` when more remain. */
    async history(projectId: string, entryId: string, query: { limit: number; cursor?: string }) {
      const before = decodeCursor(query.cursor);
      if (!(await repo.findEntry(db, projectId, entryId))) throw notFound('Entry');
      const rows = await repo.historyOf(db, projectId, entryId, before, query.limit);
      return rows.map(toHistory);
    },

    /**
     * The working copy becomes the fields of that history row: a draft, published as usual. Values a
     * changed declaration no longer accepts are kept and reported in `problems` (contract §17).
     */
    restore(
      projectId: string,
      entryId: string,
      historyId: string,
      actor: Actor,
      ifMatch?: number,
    ): Promise<Entry> {
      return transactionWithChanges(db, bus, async (trx, changed) => {
        const locales = definitions.localesOf ? await definitions.localesOf(trx, projectId) : null;
        const row = await lockedEntry(trx, projectId, entryId, locales ? undefined : ifMatch);
        const past = await repo.findHistory(trx, projectId, entryId, historyId);
        if (!past) throw notFound('History entry');
        if (locales) {
          const ctx = { locales, code: past.locale ?? locales.default };
          const [before] = await forEditor(trx, [row], ctx);
          if (ifMatch !== undefined && ifMatch !== before?.version)
            throw preconditionFailed(before?.version ?? 0);
          return locale.restoreIn(trx, changed, row, past, actor, locales);
        }
        if (past.fields === row.fields) return forEditor(trx, [row]).then(([e]) => e as Entry);
        // The definition may have changed since: what no longer fits is kept and shows in `problems`,
        // stopping a publish until an editor fixes it (contract §17), never a 400 here.
        await changed(TOPICS.draft, pageKey(projectId, row.pageId)); // preview streams
        // A restore loses nothing (contract §15): a working copy that no history record holds (an
        // unpublished draft) is recorded first, so restoring it back is one more restore. Rejected:
        // asking the client to confirm, which a script or a second tab would skip.
        const now = isoNow();
        const kept = !(await repo.historyHoldsFields(trx, projectId, row.id, row.fields));
        if (kept) {
          const member = memberBehind(actor);
          await runSideWrites(trx, [
            repo.historyWrite([
              {
                id: newId('his'),
                projectId,
                entryId: row.id,
                action: 'saved',
                fields: row.fields,
                actorId: member.id,
                actorEmail: member.email,
                at: now,
                locale: null,
              },
            ]),
          ]);
        }
        await recordActivity(trx, projectId, actor, {
          action: 'entry.restored',
          target: { type: 'entry', id: row.id },
          summary: `${actorLabel(actor)} restored ${describeEntry(row)} to the version of ${past.at}${kept ? ' (the draft it replaced is kept in its history)' : ''}.`,
        });
        const updated = await repo.updateEntry(trx, row.id, { fields: past.fields, updatedAt: now });
        return (await forEditor(trx, [{ ...updated, declaredFields: row.declaredFields }]))[0] as Entry;
      });
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
