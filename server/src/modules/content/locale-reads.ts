import type { DbOrTx } from '../../db/database.js';
import { canonicalJson } from '../../shared/canonical.js';
import { chainOf, type Locales } from '../../shared/locales.js';
import { type Declarations, declarationsOf } from '../definitions/index.js';
import * as repo from './content.repository.js';
import type { Fields } from './content.service.js';
import type { EntryLocaleRow } from './content.table.js';
import { localizedKeys, publishedIn, publishedView, type Slots, workingIn } from './locale-slots.js';
import { slotRowsOf, slotRowsOfProject } from './locales.repository.js';
import type { LoadTargets } from './references.js';

/**
 * What visitors read in a locale (contract §14, §17), for the published pages, the snapshots and
 * live streams: each entry composed with locale-slots.ts's publishedView from its own row (the
 * default's slot) and its other locales' rows.
 */

/** How a visitor reads: the locale and the locales whose copies may serve it (its chain, or itself with `?fallback=false`). */
export interface VisitorLocale {
  locales: Locales;
  code: string;
  fallback: boolean;
  /** chainOf(locales, code), or [code] without fallback. */
  chain: string[];
}

export function visitorLocale(locales: Locales, code: string, fallback: boolean): VisitorLocale {
  return { locales, code, fallback, chain: fallback ? chainOf(locales, code) : [code] };
}

/** An entry as a visitor reads it in a locale; `fields` in canonical order. */
export interface LocaleView {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  fields: Fields;
  /** UTF-8 bytes of `fields` as JSON (the reference budget's measure, references.ts). */
  bytes: number;
  publishedAt: string;
  version: number;
  /** The entry's `locales` for a visitor: each locale of the chain that holds a published copy of it. */
  locales: Record<string, { status: 'published'; publishedAt: string }>;
  declared: Declarations;
}

type SlotEntry = Slots['entry'];

/** The slot of an entry row read without its working copy (visitors never read it; publishedView never does). */
const publishedSlot = (
  r: Pick<SlotEntry, 'publishedFields' | 'publishedAt' | 'publishedVersion'>,
): SlotEntry => ({
  fields: '{}',
  version: 1,
  sharedVersion: 0,
  publishedFields: r.publishedFields,
  publishedAt: r.publishedAt,
  publishedVersion: r.publishedVersion,
});

const NO_ROWS: ReadonlyMap<string, EntryLocaleRow> = new Map();

/** One entry's view in `reader`'s locale, or null when no copy of its chain is published. */
export function viewOf(
  row: {
    id: string;
    pageId: string;
    instanceKey: string;
    componentId: string;
    publishedFields: string | null;
    publishedAt: string | null;
    publishedVersion: number | null;
    declaredFields: string | null;
  },
  others: ReadonlyMap<string, EntryLocaleRow> | undefined,
  reader: VisitorLocale,
): LocaleView | null {
  const slots: Slots = { entry: publishedSlot(row), others: others ?? NO_ROWS };
  const declared = declarationsOf(row.declaredFields);
  const view = publishedView(slots, reader.locales, reader.code, localizedKeys(declared), reader.fallback);
  if (view === null) return null;
  const locales: LocaleView['locales'] = {};
  for (const c of reader.chain) {
    const copy = publishedIn(slots, reader.locales, c);
    if (copy.fields !== null && copy.at !== null) locales[c] = { status: 'published', publishedAt: copy.at };
  }
  // Canonical key order, as stored copies are: the bytes do not depend on which copy served which key.
  const text = canonicalJson(view.fields);
  return {
    id: row.id,
    pageId: row.pageId,
    instanceKey: row.instanceKey,
    componentId: row.componentId,
    fields: JSON.parse(text) as Fields,
    bytes: Buffer.byteLength(text),
    publishedAt: view.publishedAt,
    version: view.version,
    locales,
    declared,
  };
}

/** Whether only the entry row's own published copy can serve the reader (the default locale's chain). */
const defaultOnly = (reader: VisitorLocale): boolean =>
  reader.chain.length === 1 && reader.chain[0] === reader.locales.default;

/**
 * The page's entries as a visitor reads them in a locale, with their positions (page order is the
 * caller's): one query for the entries and, off the default locale, one per 500 of them for their
 * other locales' rows.
 */
export async function pageIn(db: DbOrTx, projectId: string, pageId: string, reader: VisitorLocale) {
  if (defaultOnly(reader)) {
    const rows = await repo.publishedEntriesOfPagesWithDeclarations(db, projectId, [pageId]);
    return rows.flatMap((r) => {
      const view = viewOf({ ...r, pageId }, undefined, reader);
      return view ? [{ ...view, position: r.position }] : [];
    });
  }
  const rows = await repo.entriesOfPageWithDeclarations(db, projectId, pageId);
  const others = await slotRowsOf(
    db,
    projectId,
    rows.map((r) => r.id),
  );
  return rows.flatMap((r) => {
    const view = viewOf(r, others.get(r.id), reader);
    return view ? [{ ...view, position: r.position }] : [];
  });
}

/** Reference targets as `reader` sees them: their published copies through its chain (contract §14). */
export const publishedTargetsIn =
  (db: DbOrTx, projectId: string, reader: VisitorLocale): LoadTargets =>
  async (ids) => {
    const rows = await repo.entriesByIds(db, projectId, ids);
    const others = defaultOnly(reader)
      ? new Map<string, Map<string, EntryLocaleRow>>()
      : await slotRowsOf(
          db,
          projectId,
          rows.map((r) => r.id),
        );
    return rows.map((r) => {
      const view = viewOf(r, others.get(r.id), reader);
      return {
        id: r.id,
        pageId: r.pageId,
        instanceKey: r.instanceKey,
        componentId: r.componentId,
        fields: view?.fields ?? null,
        bytes: view?.bytes ?? 0,
        declared: declarationsOf(r.declaredFields),
      };
    });
  };

/**
 * Reference targets as an editor or a preview token reads them in `code`: working copies through its
 * chain (`fallback` false: each target's own copy in `code`, as the read's own entries).
 */
export const workingTargetsIn =
  (db: DbOrTx, projectId: string, locales: Locales, code: string, fallback = true): LoadTargets =>
  async (ids) => {
    const rows = await repo.entriesByIds(db, projectId, ids);
    const others = await slotRowsOf(
      db,
      projectId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => {
      const declared = declarationsOf(r.declaredFields);
      const slots: Slots = { entry: r, others: others.get(r.id) ?? NO_ROWS };
      const fields = workingIn(slots, locales, code, localizedKeys(declared), fallback).fields;
      return {
        id: r.id,
        pageId: r.pageId,
        instanceKey: r.instanceKey,
        componentId: r.componentId,
        fields,
        // Composed from several rows, so measured here (a member's read; visitors' copies are measured as stored).
        bytes: Buffer.byteLength(JSON.stringify(fields)),
        declared,
      };
    });
  };

/** A live entry of a locale's snapshot (snapshot.service.ts's PublishedEntry). */
export interface SnapshotEntryIn {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  /** Canonical JSON. */
  publishedFields: string;
}

/**
 * Every live entry of the project in each of `codes` (with fallback, contract §14 "Snapshot"): two
 * queries whatever the number of entries and locales.
 */
export async function snapshotEntriesIn(
  db: DbOrTx,
  projectId: string,
  locales: Locales,
  codes: readonly string[],
): Promise<Map<string, SnapshotEntryIn[]>> {
  const [rows, slotRows] = await Promise.all([
    repo.entriesOfProjectForSnapshot(db, projectId),
    slotRowsOfProject(db, projectId),
  ]);
  const readers = codes.map((code) => visitorLocale(locales, code, true));
  const out = new Map<string, SnapshotEntryIn[]>(codes.map((c) => [c, []]));
  const localizedOf = new Map<string | null, Set<string>>();
  for (const r of rows) {
    let localized = localizedOf.get(r.declaredFields);
    if (!localized) {
      localized = localizedKeys(declarationsOf(r.declaredFields));
      localizedOf.set(r.declaredFields, localized);
    }
    const slots: Slots = { entry: publishedSlot(r), others: slotRows.get(r.id) ?? NO_ROWS };
    for (const reader of readers) {
      // The default's own copy is stored canonical and serves every key: copied as text.
      if (defaultOnly(reader)) {
        if (r.publishedFields === null) continue;
        out.get(reader.code)?.push({ ...r, publishedFields: r.publishedFields });
        continue;
      }
      const view = publishedView(slots, locales, reader.code, localized, true);
      if (view === null) continue;
      out.get(reader.code)?.push({
        id: r.id,
        pageId: r.pageId,
        instanceKey: r.instanceKey,
        componentId: r.componentId,
        publishedFields: canonicalJson(view.fields),
      });
    }
  }
  return out;
}
