import { canonicalJson } from '../../shared/canonical.js';
import { chainOf, type Locales } from '../../shared/locales.js';
import type { Declarations } from '../definitions/index.js';
import type { EntryLocaleRow, EntryRow } from './content.table.js';

/**
 * How an entry's locales combine (contract §14, §17; the storage is migration 0020's). The one place
 * that knows it: the entry's own row is its default locale's slot (shared values and the default's
 * localized values, the default's published copy and version); `entry_locales` rows hold each other
 * locale's own localized values and published copy. Everything here is pure: reads and writes pass the
 * rows in.
 */

type Fields = Record<string, unknown>;
// Field keys are data (contract §23): whether a copy holds a key is Object.hasOwn, never `key in`,
// which finds what every object inherits (`constructor`, `toString`, …) and made those fields vanish.

/** An entry with its other locales' rows, keyed by locale (rows of removed locales may be present: ignored). */
export interface Slots {
  entry: Pick<
    EntryRow,
    'fields' | 'publishedFields' | 'publishedAt' | 'version' | 'publishedVersion' | 'sharedVersion'
  >;
  others: ReadonlyMap<string, EntryLocaleRow>;
}

/** The top-level keys declared `localized: true`; every other key (undeclared ones included) is shared. */
export function localizedKeys(declared: Declarations): Set<string> {
  const keys = new Set<string>();
  for (const [key, d] of declared) if (d.localized === true) keys.add(key);
  return keys;
}

const pick = (fields: Fields, keep: (key: string) => boolean): Fields =>
  Object.fromEntries(Object.entries(fields).filter(([k]) => keep(k)));

/** The other locale's row, unless `code` is the default or no longer one of the project's locales. */
function rowOf(slots: Slots, locales: Locales, code: string): EntryLocaleRow | undefined {
  if (code === locales.default || !locales.available.some((l) => l.code === code)) return undefined;
  return slots.others.get(code);
}

/** `code`'s own values of localized fields (working copy). */
export function ownValues(slots: Slots, locales: Locales, code: string, localized: Set<string>): Fields {
  const text = code === locales.default ? slots.entry.fields : rowOf(slots, locales, code)?.fields;
  return text === undefined ? {} : pick(JSON.parse(text) as Fields, (k) => localized.has(k));
}

/** The shared values of a working copy (the entry row's non-localized keys). */
export const sharedValues = (fields: Fields, localized: Set<string>): Fields =>
  pick(fields, (k) => !localized.has(k));

/**
 * The working copy an editor reads in `code`: localized values through the chain, `fallbacks` naming
 * where each came from. `fallback: false` (a member's `?fallback=false`, §14) reads `code`'s own copy:
 * its own localized values and the shared ones, `fallbacks` then `{}`.
 */
export function workingIn(
  slots: Slots,
  locales: Locales,
  code: string,
  localized: Set<string>,
  fallback = true,
): { fields: Fields; fallbacks: Record<string, string> } {
  const fields = sharedValues(JSON.parse(slots.entry.fields) as Fields, localized);
  const fallbacks: Record<string, string> = {};
  for (const c of fallback ? chainOf(locales, code) : [code]) {
    for (const [key, value] of Object.entries(ownValues(slots, locales, c, localized))) {
      if (Object.hasOwn(fields, key)) continue;
      fields[key] = value;
      if (c !== code) fallbacks[key] = c;
    }
  }
  return { fields, fallbacks };
}

/** What a publish in `code` would make its published copy: the shared values now and `code`'s own values. */
export function publishableCopy(
  slots: Slots,
  locales: Locales,
  code: string,
  localized: Set<string>,
): string {
  if (code === locales.default) return slots.entry.fields;
  return canonicalJson({
    ...sharedValues(JSON.parse(slots.entry.fields) as Fields, localized),
    ...ownValues(slots, locales, code, localized),
  });
}

/** `code`'s published copy (canonical JSON) and when it was made; nulls when not published there. */
export function publishedIn(
  slots: Slots,
  locales: Locales,
  code: string,
): { fields: string | null; at: string | null; version: number | null } {
  if (code === locales.default) {
    const e = slots.entry;
    return { fields: e.publishedFields, at: e.publishedAt, version: e.publishedVersion };
  }
  const row = rowOf(slots, locales, code);
  return {
    fields: row?.publishedFields ?? null,
    at: row?.publishedAt ?? null,
    version: row?.publishedFields == null ? null : (row.publishedVersion ?? null),
  };
}

/** `code`'s version (§17): the entry's own for the default; the shared count plus the locale's own otherwise. */
export function versionIn(slots: Slots, locales: Locales, code: string): number {
  if (code === locales.default) return slots.entry.version;
  return slots.entry.sharedVersion + (rowOf(slots, locales, code)?.version ?? 1);
}

/** `code`'s status for an editor: published while its published copy is what a publish would make now. */
export function statusIn(
  slots: Slots,
  locales: Locales,
  code: string,
  localized: Set<string>,
): { status: 'draft' | 'published'; publishedAt: string | null } {
  const published = publishedIn(slots, locales, code);
  const live =
    published.fields !== null && published.fields === publishableCopy(slots, locales, code, localized);
  return { status: live ? 'published' : 'draft', publishedAt: published.at };
}

/** Every locale's status and version (§17), for a member's `locales`. */
export function statusesOf(slots: Slots, locales: Locales, localized: Set<string>) {
  return Object.fromEntries(
    locales.available.map((l) => [
      l.code,
      { ...statusIn(slots, locales, l.code, localized), version: versionIn(slots, locales, l.code) },
    ]),
  );
}

/**
 * What a visitor reading `code` sees (§14 "Fallback"), or null when no locale of the chain has a
 * published copy: localized values from the first published copy along the chain that holds each;
 * shared values, `publishedAt` and `version` from the first locale of the chain that has a published
 * copy (the copy served). `fallback: false` reads `code`'s own copy only.
 */
export function publishedView(
  slots: Slots,
  locales: Locales,
  code: string,
  localized: Set<string>,
  fallback = true,
): { fields: Fields; publishedAt: string; version: number; servedFrom: string } | null {
  const chain = fallback ? chainOf(locales, code) : [code];
  const copies = chain
    .map((c) => ({ c, p: publishedIn(slots, locales, c) }))
    .filter(
      (x): x is { c: string; p: { fields: string; at: string; version: number } } => x.p.fields !== null,
    );
  const served = copies[0];
  if (!served) return null;
  const fields = sharedValues(JSON.parse(served.p.fields) as Fields, localized);
  for (const { p } of copies) {
    for (const [key, value] of Object.entries(JSON.parse(p.fields) as Fields)) {
      if (localized.has(key) && !Object.hasOwn(fields, key)) fields[key] = value;
    }
  }
  return { fields, publishedAt: served.p.at, version: served.p.version, servedFrom: served.c };
}

/**
 * The values rules are checked on at a publish in `code` (§17): its working copy with its own values,
 * and for a localized value it lacks, the value of the first locale on its chain whose published copy
 * has one, as a visitor would see it.
 */
export function valuesForRules(slots: Slots, locales: Locales, code: string, localized: Set<string>): Fields {
  const fields: Fields = {
    ...sharedValues(JSON.parse(slots.entry.fields) as Fields, localized),
    ...ownValues(slots, locales, code, localized),
  };
  for (const c of chainOf(locales, code).slice(1)) {
    const copy = publishedIn(slots, locales, c).fields;
    if (copy === null) continue;
    for (const [key, value] of Object.entries(JSON.parse(copy) as Fields)) {
      if (localized.has(key) && !Object.hasOwn(fields, key)) fields[key] = value;
    }
  }
  return fields;
}
