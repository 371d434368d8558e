import type { DbOrTx, Tx } from '../../db/database.js';
import { type Changed, pageKey, TOPICS } from '../../db/dialect/change-bus.js';
import { runSideWrites } from '../../db/dialect/together.js';
import { actorLabel, type Outbox } from '../../outbox/index.js';
import { byCodeUnits, canonicalJson } from '../../shared/canonical.js';
import { conflict, preconditionFailed } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { Locales } from '../../shared/locales.js';
import { memberBehind } from '../../shared/principals.js';
import { isoNow } from '../../shared/time.js';
import type { SessionCheck } from '../auth/index.js';
import type { Declarations, RuleBudget } from '../definitions/index.js';
import * as repo from './content.repository.js';
import type { Entry } from './content.service.js';
import type { EntryLocaleRow, HistoryRow } from './content.table.js';
import {
  localizedKeys,
  ownValues,
  publishableCopy,
  publishedIn,
  type Slots,
  sharedValues,
  statusesOf,
  statusIn,
  valuesForRules,
  versionIn,
  workingIn,
} from './locale-slots.js';
import { slotRowsOf, writeSlot } from './locales.repository.js';
import {
  assertPublishable,
  type EntryProblem,
  problemsOf,
  type RuleSubject,
  subjectKey,
} from './publish-rules.js';

type Fields = Record<string, unknown>;

/** The locale a request acts in, in a project with locales (requestedLocale resolved it). */
export interface LocaleContext {
  locales: Locales;
  code: string;
  /** False for a member's `?fallback=false` read (§14): the locale's own working copy, `fallbacks` `{}`. */
  fallback?: boolean;
}

/** An entry as an editor reads it in a locale (contract §14): every locale fact present. */
export type LocalizedEntry = Entry &
  Required<Pick<Entry, 'problems' | 'locales' | 'fallbacks'>> & { locale: string };

/** What the locale operations borrow of content's operations (content.service.ts). */
export interface LocaleDeps {
  outbox: Outbox;
  declarationsOf(definitionFields: string | null): Declarations;
  /** A new rule budget for one operation (contract §23). */
  rulesBudget(): RuleBudget;
  validate(reader: DbOrTx, row: repo.EntryForWrite, values: Fields, merged: Fields): Promise<void>;
  lockedEntry(
    trx: Tx,
    projectId: string,
    entryId: string,
    ifMatch?: number,
    check?: SessionCheck,
  ): Promise<repo.EntryForWrite>;
  boundedFields(fields: Fields): string;
  describeEntry(row: Pick<repo.EntryWithDeclarations, 'instanceKey' | 'componentId' | 'pageId'>): string;
}

const later = (a: string, b: string | undefined): string => (b !== undefined && b > a ? b : a);

/** A locale's slot before its first write: no values of its own, nothing published (version 1). */
const emptySlot = (entryId: string, projectId: string, locale: string): EntryLocaleRow => ({
  entryId,
  locale,
  projectId,
  fields: '{}',
  publishedFields: null,
  publishedAt: null,
  version: 1,
  publishedVersion: null,
  updatedAt: '',
});

/**
 * Content's changes and editor reads in a project with locales (contract §14, §17): the same
 * operations as content.service.ts's, each acting in one locale (or `*`, every locale). A project
 * without locales never comes here, so its statements are the ones it always ran.
 */
export function createLocaleOperations(deps: LocaleDeps) {
  const { outbox } = deps;

  const slotsOf = (
    row: repo.EntryWithDeclarations,
    others: Map<string, Map<string, EntryLocaleRow>>,
  ): Slots => ({
    entry: row,
    others: others.get(row.id) ?? new Map(),
  });

  /** The subject whose problems a publish in `code` would meet. */
  const ruleSubject = (row: repo.EntryWithDeclarations, slots: Slots, ctx: LocaleContext): RuleSubject => {
    const declared = deps.declarationsOf(row.declaredFields);
    return {
      id: row.id,
      fields: canonicalJson(valuesForRules(slots, ctx.locales, ctx.code, localizedKeys(declared))),
      declared,
      locale: ctx.code,
    };
  };

  /**
   * The entries as an editor reads them in `ctx.code`, with `problems` in every locale of the project
   * (§13: what would stop a publish in each, each problem carrying its `locale`, in the project's
   * order of locales): two queries for the rows of other locales and the problems' lookups, whatever
   * the number of entries and locales. Locales whose values for the rules are the same text (nothing
   * translated yet) are judged once: publishReport remembers a report by copy and definition, and the
   * one RuleBudget of the read bounds what the rest may cost (contract §23).
   */
  async function forEditor(
    reader: DbOrTx,
    rows: readonly repo.EntryWithDeclarations[],
    ctx: LocaleContext,
  ): Promise<LocalizedEntry[]> {
    const first = rows[0];
    if (!first) return [];
    const others = await slotRowsOf(
      reader,
      first.projectId,
      rows.map((r) => r.id),
    );
    const slots = rows.map((r) => slotsOf(r, others));
    const codes = ctx.locales.available.map((l) => l.code);
    const problems = await problemsOf(
      reader,
      first.projectId,
      rows.flatMap((r, i) =>
        codes.map((code) => ruleSubject(r, slots[i] as Slots, { locales: ctx.locales, code })),
      ),
      deps.rulesBudget(),
    );
    return rows.map((r, i) =>
      view(
        r,
        slots[i] as Slots,
        ctx,
        codes.flatMap((code) => problems.get(subjectKey(r.id, code)) ?? []),
      ),
    );
  }

  function view(
    row: repo.EntryWithDeclarations,
    slots: Slots,
    ctx: LocaleContext,
    problems: EntryProblem[],
  ): LocalizedEntry {
    const localized = localizedKeys(deps.declarationsOf(row.declaredFields));
    const { locales, code } = ctx;
    const working = workingIn(slots, locales, code, localized, ctx.fallback !== false);
    const status = statusIn(slots, locales, code, localized);
    return {
      id: row.id,
      pageId: row.pageId,
      instanceKey: row.instanceKey,
      componentId: row.componentId,
      fields: working.fields,
      status: status.status,
      publishedAt: status.publishedAt,
      updatedAt:
        code === locales.default ? row.updatedAt : later(row.updatedAt, slots.others.get(code)?.updatedAt),
      version: versionIn(slots, locales, code),
      problems,
      locale: code,
      locales: statusesOf(slots, locales, localized),
      fallbacks: working.fallbacks,
    };
  }

  /** The history rows and event of a publish or unpublish in `codes`, and the cache topics it touches. */
  async function announce(
    trx: Tx,
    changed: Changed,
    type: 'content.published' | 'content.unpublished',
    items: {
      row: repo.EntryWithDeclarations;
      locale: string;
      recorded: string;
      published: string | null;
      at: string | null;
    }[],
    actor: Parameters<typeof memberBehind>[0],
    now: string,
  ) {
    const first = items[0];
    if (!first) return;
    const { projectId, pageId } = first.row;
    const member = memberBehind(actor);
    // Only the reads of the locales whose chain holds one of these change (published-pages.ts, live).
    for (const locale of new Set(items.map((i) => i.locale)))
      await changed(TOPICS.page, pageKey(projectId, pageId, locale));
    await changed(TOPICS.snapshot, projectId);
    await runSideWrites(trx, [
      repo.historyWrite(
        items.map((item) => ({
          id: newId('his'),
          projectId,
          entryId: item.row.id,
          action: type === 'content.published' ? 'publish' : 'unpublish',
          fields: item.recorded,
          actorId: member.id,
          actorEmail: member.email,
          at: now,
          locale: item.locale,
        })),
      ),
      outbox.eventWrite(projectId, type, {
        pageId,
        entries: items.map((item) => ({
          id: item.row.id,
          instanceKey: item.row.instanceKey,
          componentId: item.row.componentId,
          fields: item.published === null ? null : (JSON.parse(item.published) as Fields),
          publishedAt: item.at,
          locale: item.locale,
        })),
        locales: [...new Set(items.map((i) => i.locale))].sort(byCodeUnits),
        actor: member,
      }),
    ]);
  }

  /**
   * PATCH in a locale (§14): localized keys write `code`'s own values, every other key the shared
   * value; `status: "published"` then publishes `code`'s copy (rules checked on its values with
   * fallback, §17). `If-Match` compares `code`'s version, so translators of two locales never refuse
   * each other's saves. Returns the entry as the editor now reads it.
   */
  async function updateIn(
    trx: Tx,
    changed: Changed,
    projectId: string,
    entryId: string,
    patch: { fields?: Fields; status?: 'draft' | 'published' },
    actor: Parameters<typeof memberBehind>[0],
    ctx: LocaleContext,
    ifMatch?: number,
    check?: SessionCheck,
  ): Promise<LocalizedEntry> {
    const { locales, code } = ctx;
    const row = await deps.lockedEntry(trx, projectId, entryId, undefined, check);
    const slots: Slots = {
      entry: row,
      others: (await slotRowsOf(trx, projectId, [row.id])).get(row.id) ?? new Map(),
    };
    if (ifMatch !== undefined && ifMatch !== versionIn(slots, locales, code)) {
      throw preconditionFailed(versionIn(slots, locales, code));
    }
    const declared = deps.declarationsOf(row.declaredFields);
    const localized = localizedKeys(declared);
    const isDefault = code === locales.default;
    const storedOwn = slots.others.get(code);
    let mainText = row.fields;
    let ownText = isDefault ? '{}' : (storedOwn?.fields ?? '{}');
    if (patch.fields) {
      const main = JSON.parse(row.fields) as Fields;
      const own = isDefault ? main : ownValues(slots, locales, code, localized);
      for (const [key, value] of Object.entries(patch.fields)) {
        const target = !isDefault && localized.has(key) ? own : main;
        if (value === null) delete target[key];
        else target[key] = value;
      }
      const merged = isDefault ? main : { ...sharedValues(main, localized), ...own };
      await deps.validate(trx, row, patch.fields, merged);
      mainText = deps.boundedFields(main);
      if (!isDefault) ownText = deps.boundedFields(own);
    }
    const sharedOf = (text: string) => canonicalJson(sharedValues(JSON.parse(text) as Fields, localized));
    const mainChanged = mainText !== row.fields;
    const sharedChanged = mainChanged && sharedOf(mainText) !== sharedOf(row.fields);
    const ownChanged = !isDefault && ownText !== (storedOwn?.fields ?? '{}');
    const placeholder = emptySlot(row.id, projectId, code);
    const after: Slots = {
      entry: { ...row, fields: mainText },
      others: isDefault
        ? slots.others
        : new Map(slots.others).set(code, { ...(storedOwn ?? placeholder), fields: ownText }),
    };
    const copy = publishableCopy(after, locales, code, localized);
    const publish = patch.status === 'published' && copy !== publishedIn(slots, locales, code).fields;
    if (!mainChanged && !ownChanged && !publish) {
      return (await forEditor(trx, [row], ctx))[0] as LocalizedEntry;
    }
    if (publish) {
      await assertPublishable(
        trx,
        projectId,
        [
          {
            id: row.id,
            fields: canonicalJson(valuesForRules(after, locales, code, localized)),
            declared,
            locale: code,
          },
        ],
        deps.rulesBudget(),
      );
    }
    const now = isoNow();
    let entry: repo.EntryWithDeclarations = row;
    if (mainChanged || (isDefault && publish)) {
      const set = {
        fields: mainText,
        updatedAt: now,
        ...(isDefault && publish && { publishedFields: copy, publishedAt: now }),
      };
      const updated = await repo.updateEntry(
        trx,
        row.id,
        set,
        isDefault && publish ? 'set' : undefined,
        sharedChanged,
      );
      entry = { ...updated, declaredFields: row.declaredFields };
    }
    if (!isDefault && (ownChanged || publish)) {
      await writeSlot(
        trx,
        { projectId, entryId: row.id, locale: code },
        { fields: ownText, updatedAt: now, ...(publish && { publishedFields: copy, publishedAt: now }) },
        publish ? 'set' : undefined,
        entry.sharedVersion,
      );
    }
    const what = deps.describeEntry(row);
    if (publish) {
      await announce(
        trx,
        changed,
        'content.published',
        [{ row, locale: code, recorded: copy, published: copy, at: now }],
        actor,
        now,
      );
    } else {
      await changed(TOPICS.draft, pageKey(projectId, row.pageId)); // preview streams
    }
    await outbox.recordActivity(trx, projectId, actor, {
      action: publish ? 'entry.published' : 'entry.updated',
      target: { type: 'entry', id: row.id },
      summary: publish
        ? `${actorLabel(actor)} ${mainChanged || ownChanged ? 'saved and published' : 'published'} ${what} in ${code}.`
        : `${actorLabel(actor)} saved a draft of ${what} in ${code}.`,
      locale: code,
    });
    return (await forEditor(trx, [entry], ctx))[0] as LocalizedEntry;
  }

  /** Takes down the published copy of `codes` (one locale, or every one for `*`); the working copies stay. */
  async function unpublishIn(
    trx: Tx,
    changed: Changed,
    projectId: string,
    entryId: string,
    actor: Parameters<typeof memberBehind>[0],
    ctx: LocaleContext,
    every: boolean,
    ifMatch?: number,
  ): Promise<LocalizedEntry> {
    const { locales, code } = ctx;
    const row = await deps.lockedEntry(trx, projectId, entryId);
    const slots: Slots = {
      entry: row,
      others: (await slotRowsOf(trx, projectId, [row.id])).get(row.id) ?? new Map(),
    };
    if (ifMatch !== undefined && ifMatch !== versionIn(slots, locales, code)) {
      throw preconditionFailed(versionIn(slots, locales, code));
    }
    const codes = every ? locales.available.map((l) => l.code) : [code];
    const live = codes.filter((c) => publishedIn(slots, locales, c).fields !== null);
    if (live.length === 0) return (await forEditor(trx, [row], ctx))[0] as LocalizedEntry;
    const now = isoNow();
    let entry: repo.EntryWithDeclarations = row;
    const items = [];
    for (const c of live) {
      const recorded = publishedIn(slots, locales, c).fields as string;
      if (c === locales.default) {
        const updated = await repo.updateEntry(
          trx,
          row.id,
          { publishedFields: null, publishedAt: null, updatedAt: now },
          'clear',
        );
        entry = { ...updated, declaredFields: row.declaredFields };
      } else {
        await writeSlot(
          trx,
          { projectId, entryId: row.id, locale: c },
          { publishedFields: null, publishedAt: null, updatedAt: now },
          'clear',
        );
      }
      items.push({ row, locale: c, recorded, published: null, at: null });
    }
    await announce(trx, changed, 'content.unpublished', items, actor, now);
    await outbox.recordActivity(trx, projectId, actor, {
      action: 'entry.unpublished',
      target: { type: 'entry', id: row.id },
      summary: `${actorLabel(actor)} unpublished ${deps.describeEntry(row)} in ${live.join(', ')}.`,
      ...(live.length === 1 && { locale: live[0] as string }),
    });
    return (await forEditor(trx, [entry], ctx))[0] as LocalizedEntry;
  }

  /**
   * Publishes every entry of the page whose copy in a locale of `codes` differs from what a publish
   * would make, all or nothing (rules checked first on every one, §13): one event for the page.
   */
  async function bulkPublishIn(
    trx: Tx,
    changed: Changed,
    projectId: string,
    pageId: string,
    actor: Parameters<typeof memberBehind>[0],
    locales: Locales,
    codes: string[],
  ) {
    const rows = await repo.entriesOfPageWithDeclarations(trx, projectId, pageId, true);
    const others = await slotRowsOf(
      trx,
      projectId,
      rows.map((r) => r.id),
    );
    const plans = rows.flatMap((row) => {
      const slots = slotsOf(row, others);
      const localized = localizedKeys(deps.declarationsOf(row.declaredFields));
      return codes.flatMap((code) => {
        const copy = publishableCopy(slots, locales, code, localized);
        return copy === publishedIn(slots, locales, code).fields ? [] : [{ row, slots, code, copy }];
      });
    });
    // Rules read a missing translation from the chain's published copies as they will be once this
    // publish commits: a `*` publish of en and fr lets fr-CA read fr's new copy (§17).
    const publishing = new Map<string, Slots>();
    for (const p of plans) {
      const slots = publishing.get(p.row.id) ?? {
        entry: { ...p.slots.entry },
        others: new Map(p.slots.others),
      };
      if (p.code === locales.default) slots.entry = { ...slots.entry, publishedFields: p.copy };
      else {
        const row = slots.others.get(p.code) ?? emptySlot(p.row.id, projectId, p.code);
        (slots.others as Map<string, EntryLocaleRow>).set(p.code, { ...row, publishedFields: p.copy });
      }
      publishing.set(p.row.id, slots);
    }
    await assertPublishable(
      trx,
      projectId,
      plans.map((p) => ruleSubject(p.row, publishing.get(p.row.id) ?? p.slots, { locales, code: p.code })),
      deps.rulesBudget(),
    );
    const now = isoNow();
    for (const p of plans) {
      if (p.code === locales.default) {
        await repo.updateEntry(
          trx,
          p.row.id,
          { publishedFields: p.copy, publishedAt: now, updatedAt: now },
          'set',
        );
      } else {
        await writeSlot(
          trx,
          { projectId, entryId: p.row.id, locale: p.code },
          { publishedFields: p.copy, publishedAt: now, updatedAt: now },
          'set',
          p.row.sharedVersion,
        );
      }
    }
    plans.sort((a, b) => byCodeUnits(a.row.instanceKey, b.row.instanceKey) || byCodeUnits(a.code, b.code));
    await announce(
      trx,
      changed,
      'content.published',
      plans.map((p) => ({ row: p.row, locale: p.code, recorded: p.copy, published: p.copy, at: now })),
      actor,
      now,
    );
    const published = [...new Set(plans.map((p) => p.row.id))];
    const inLocales = [...new Set(plans.map((p) => p.code))].sort(byCodeUnits);
    plans.sort((a, b) => byCodeUnits(a.row.instanceKey, b.row.instanceKey));
    if (plans.length > 0) {
      await outbox.recordActivity(trx, projectId, actor, {
        action: 'page.published',
        target: { type: 'page', id: pageId },
        summary: `${actorLabel(actor)} published page ${pageId} (${published.length} ${published.length === 1 ? 'entry' : 'entries'}) in ${inLocales.join(', ')}.`,
        ...(codes.length === 1 && { locale: codes[0] as string }),
      });
    }
    return { pageId, published, locales: codes };
  }

  /**
   * A history restore (§14, §17): writes the working copy in the record's locale (a record from before
   * the project had locales is the default locale's), replacing that locale's localized values and the
   * shared values; other locales' own values stay. A working copy no record holds is kept first
   * (`saved`), as without locales.
   */
  async function restoreIn(
    trx: Tx,
    changed: Changed,
    row: repo.EntryForWrite,
    past: HistoryRow,
    actor: Parameters<typeof memberBehind>[0],
    locales: Locales,
  ): Promise<LocalizedEntry> {
    const code = past.locale ?? locales.default;
    if (!locales.available.some((l) => l.code === code)) {
      throw conflict(
        `This version was saved in "${code}", which the project no longer has; add the locale back to restore it.`,
      );
    }
    const ctx = { locales, code };
    const { projectId } = row;
    const slots: Slots = {
      entry: row,
      others: (await slotRowsOf(trx, projectId, [row.id])).get(row.id) ?? new Map(),
    };
    const localized = localizedKeys(deps.declarationsOf(row.declaredFields));
    const isDefault = code === locales.default;
    const pastFields = JSON.parse(past.fields) as Fields;
    const pastOwn = Object.fromEntries(Object.entries(pastFields).filter(([k]) => localized.has(k)));
    const main = isDefault
      ? pastFields
      : { ...ownValues(slots, locales, locales.default, localized), ...sharedValues(pastFields, localized) };
    const mainText = canonicalJson(main);
    const ownText = isDefault ? '{}' : canonicalJson(pastOwn);
    const mainChanged = mainText !== row.fields;
    const ownChanged = !isDefault && ownText !== (slots.others.get(code)?.fields ?? '{}');
    if (!mainChanged && !ownChanged) return (await forEditor(trx, [row], ctx))[0] as LocalizedEntry;
    await changed(TOPICS.draft, pageKey(projectId, row.pageId)); // preview streams
    const now = isoNow();
    const current = publishableCopy(slots, locales, code, localized);
    const kept = !(await repo.historyHoldsFields(trx, projectId, row.id, current));
    if (kept) {
      const member = memberBehind(actor);
      await runSideWrites(trx, [
        repo.historyWrite([
          {
            id: newId('his'),
            projectId,
            entryId: row.id,
            action: 'saved',
            fields: current,
            actorId: member.id,
            actorEmail: member.email,
            at: now,
            locale: code,
          },
        ]),
      ]);
    }
    await outbox.recordActivity(trx, projectId, actor, {
      action: 'entry.restored',
      target: { type: 'entry', id: row.id },
      summary: `${actorLabel(actor)} restored ${deps.describeEntry(row)} in ${code} to the version of ${past.at}${kept ? ' (the draft it replaced is kept in its history)' : ''}.`,
      locale: code,
    });
    const sharedChanged =
      mainChanged &&
      canonicalJson(sharedValues(main, localized)) !==
        canonicalJson(sharedValues(JSON.parse(row.fields) as Fields, localized));
    let entry: repo.EntryWithDeclarations = row;
    if (mainChanged) {
      const updated = await repo.updateEntry(
        trx,
        row.id,
        { fields: mainText, updatedAt: now },
        undefined,
        sharedChanged,
      );
      entry = { ...updated, declaredFields: row.declaredFields };
    }
    if (ownChanged) {
      await writeSlot(trx, { projectId, entryId: row.id, locale: code }, { fields: ownText, updatedAt: now });
    }
    return (await forEditor(trx, [entry], ctx))[0] as LocalizedEntry;
  }

  return { forEditor, updateIn, unpublishIn, bulkPublishIn, restoreIn };
}

export type LocaleOperations = ReturnType<typeof createLocaleOperations>;
