import type { DbOrTx } from '../../db/database.js';
import { isOneOf } from '../../db/dialect/index.js';
import { declaredFieldsOf } from '../definitions/index.js';
import type { EntryLocaleRow } from './content.table.js';

/**
 * The entries' slots in locales other than the project's default (`entry_locales`, migration 0020). The
 * entry's own row is the default locale's; these hold what each other locale has of its own.
 */

/**
 * The locales other than `except` in which some entry of the project holds a value or a published copy,
 * removed locales included (their values are kept, hidden): PATCH `locales: null` is refused while any
 * exists (contract §17).
 */
export async function localesHoldingValues(db: DbOrTx, projectId: string, except: string): Promise<string[]> {
  const rows = await db
    .selectFrom('entryLocales')
    .select('locale')
    .distinct()
    .where('projectId', '=', projectId)
    .where('locale', '!=', except)
    .where((eb) => eb.or([eb('fields', '!=', '{}'), eb('publishedFields', 'is not', null)]))
    .orderBy('locale')
    .execute();
  return rows.map((r) => r.locale);
}

/** Per page and locale other than the default: what GET /v1/pages counts of that locale's copies. */
export interface LocalePageSummary {
  pageId: string;
  locale: string;
  /** Entries with a published copy of their own in the locale. */
  published: number;
  /** Of those, the ones published at the locale's current version (nothing changed there since). */
  current: number;
  /** The latest change to a row of the locale (a translation saved or published). */
  updatedAt: string;
}

/**
 * Per page of `pageIds` and locale of `codes` (the project's locales but its default): the entries
 * published in it, and those whose published copy is of the locale's current version, i.e. made at
 * `sharedVersion` plus the row's own `version` (contract §17; writeSlot records it so). An entry
 * without a row there has neither. One grouped query over those pages' entries (the
 * (project_id, page_id, …) index) joined to their rows by primary key, never a query per page.
 * Rejected: comparing the composed copies as the entries' `status` does, which needs each entry's
 * declarations and every row's text in the process (10,000 entries for a list of 1,000 pages).
 */
export async function localePageSummaries(
  db: DbOrTx,
  projectId: string,
  pageIds: readonly string[],
  codes: readonly string[],
): Promise<LocalePageSummary[]> {
  if (pageIds.length === 0 || codes.length === 0) return [];
  const rows = await db
    .selectFrom('contentEntries as e')
    .innerJoin('entryLocales as l', 'l.entryId', 'e.id')
    .select((eb) => [
      'e.pageId',
      'l.locale',
      eb.fn
        .sum<number>(eb.case().when('l.publishedFields', 'is not', null).then(1).else(0).end())
        .as('published'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(
              eb.and([
                eb('l.publishedFields', 'is not', null),
                eb('l.publishedVersion', '=', eb('e.sharedVersion', '+', eb.ref('l.version'))),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('current'),
      eb.fn.max('l.updatedAt').as('updatedAt'),
    ])
    .where('e.projectId', '=', projectId)
    .where(isOneOf(db, 'e.pageId', pageIds))
    .where('l.projectId', '=', projectId)
    .where(isOneOf(db, 'l.locale', codes))
    .groupBy(['e.pageId', 'l.locale'])
    .execute();
  // PostgreSQL's sum() is a bigint, which pg returns as a string.
  return rows.map((r) => ({
    pageId: r.pageId,
    locale: r.locale,
    published: Number(r.published),
    current: Number(r.current),
    updatedAt: r.updatedAt as string,
  }));
}

/** The other locales' rows of `entryIds`, by entry and locale: one query per 500 ids. */
export async function slotRowsOf(
  db: DbOrTx,
  projectId: string,
  entryIds: readonly string[],
): Promise<Map<string, Map<string, EntryLocaleRow>>> {
  const out = new Map<string, Map<string, EntryLocaleRow>>();
  for (let i = 0; i < entryIds.length; i += 500) {
    const rows = await db
      .selectFrom('entryLocales')
      .selectAll()
      .where('projectId', '=', projectId)
      .where('entryId', 'in', entryIds.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      const byLocale = out.get(row.entryId) ?? new Map<string, EntryLocaleRow>();
      byLocale.set(row.locale, row);
      out.set(row.entryId, byLocale);
    }
  }
  return out;
}

/** Every other locale's row of the project's entries, by entry and locale (the snapshots): one query. */
export async function slotRowsOfProject(
  db: DbOrTx,
  projectId: string,
): Promise<Map<string, Map<string, EntryLocaleRow>>> {
  const out = new Map<string, Map<string, EntryLocaleRow>>();
  const rows = await db.selectFrom('entryLocales').selectAll().where('projectId', '=', projectId).execute();
  for (const row of rows) {
    const byLocale = out.get(row.entryId) ?? new Map<string, EntryLocaleRow>();
    byLocale.set(row.locale, row);
    out.set(row.entryId, byLocale);
  }
  return out;
}

/**
 * Writes a locale's slot of an entry, counting the change in its `version` (a new row starts at 2: a
 * locale without a row reads as version 1, locale-slots.ts). `published`: "set" makes this version the
 * published one, "clear" takes it down. The published version is the locale's version (§17: the
 * entry's `sharedVersion`, passed in, plus the row's own), what visitors then read.
 */
export async function writeSlot(
  trx: DbOrTx,
  key: { projectId: string; entryId: string; locale: string },
  set: Partial<Pick<EntryLocaleRow, 'fields' | 'publishedFields' | 'publishedAt'>> & { updatedAt: string },
  published?: 'set' | 'clear',
  sharedVersion = 0,
): Promise<EntryLocaleRow> {
  return trx
    .insertInto('entryLocales')
    .values({
      ...key,
      fields: set.fields ?? '{}',
      publishedFields: set.publishedFields ?? null,
      publishedAt: set.publishedAt ?? null,
      version: 2,
      publishedVersion: published === 'set' ? 2 + sharedVersion : null,
      updatedAt: set.updatedAt,
    })
    .onConflict((oc) =>
      oc.columns(['entryId', 'locale']).doUpdateSet((eb) => ({
        ...set,
        version: eb('entryLocales.version', '+', 1),
        ...(published === 'set' && { publishedVersion: eb('entryLocales.version', '+', 1 + sharedVersion) }),
        ...(published === 'clear' && { publishedVersion: null }),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The other-locale rows whose own values or published copy hold the text of one of `ids`, with their
 * entry's page, component and declarations (candidates for referrers.ts, as entriesMentioning is for
 * the entries' own rows).
 */
export function slotsMentioning(
  db: DbOrTx,
  projectId: string,
  ids: readonly string[],
  copy: 'any' | 'published',
) {
  return db
    .selectFrom('entryLocales as l')
    .innerJoin('contentEntries as e', 'e.id', 'l.entryId')
    .select([
      'l.entryId as id',
      'l.locale',
      'l.fields',
      'l.publishedFields',
      'e.pageId',
      'e.instanceKey',
      'e.componentId',
    ])
    .select(() => [declaredFieldsOf(db, 'e').as('declaredFields')])
    .where('l.projectId', '=', projectId)
    .where((eb) =>
      eb.or(
        ids.flatMap((id) => [
          eb('l.publishedFields', 'like', `%"${id}"%`),
          ...(copy === 'any' ? [eb('l.fields', 'like', `%"${id}"%`)] : []),
        ]),
      ),
    )
    .execute() as Promise<
    {
      id: string;
      locale: string;
      fields: string;
      publishedFields: string | null;
      pageId: string;
      instanceKey: string;
      componentId: string;
      declaredFields: string | null;
    }[]
  >;
}
