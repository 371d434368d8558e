import type { DbOrTx } from '../../db/database.js';
import { byCodeUnits } from '../../shared/canonical.js';
import type { Locales } from '../../shared/locales.js';
import type { Declarations } from '../definitions/index.js';
import { referencesIn } from '../definitions/index.js';
import * as repo from './content.repository.js';
import { localizedKeys } from './locale-slots.js';
import { slotsMentioning } from './locales.repository.js';

/**
 * Who refers to an entry (contract §13, §17 Operations): the rows of
 * `GET /v1/content/:entryId/references` and the check that stops deleting what published content
 * refers to. Candidates come from one scan of the project's rows (repo.entriesMentioning); each is
 * confirmed, with its paths, by walking its declared references (field-references.ts), so an id
 * written in a text or json field is not a reference.
 */

export interface ReferenceRow {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  /** As in `problems`, with indexes in that copy: `fields.items[1].ref`. */
  path: string;
  /** The locale of a localized field's value; null for a shared field (and in a project without locales). */
  locale: string | null;
  copy: 'working' | 'published';
}

/**
 * Every reference to one of `targets`, one row per referring entry, copy, path and locale. In a project
 * with locales, a localized field's reference carries the locale whose value holds it (the entry's own
 * row is the default locale's; `entry_locales` rows the others', removed locales included: a deletion
 * must not leave them dangling when the locale comes back); a shared field's carries null, once.
 */
export async function referencesOf(
  db: DbOrTx,
  projectId: string,
  targets: readonly string[],
  copy: 'any' | 'published',
  declarationsOf: (definitionFields: string | null) => Declarations,
  locales: Locales | null = null,
): Promise<ReferenceRow[]> {
  const wanted = new Set(targets);
  const out = new Map<string, ReferenceRow>();
  const collect = (
    row: {
      id: string;
      pageId: string;
      instanceKey: string;
      componentId: string;
      declaredFields: string | null;
    },
    locale: string | null,
    copies: [ReferenceRow['copy'], string | null][],
  ) => {
    const declared = declarationsOf(row.declaredFields);
    const localized = locale !== null ? localizedKeys(declared) : new Set<string>();
    for (const [which, text] of copies) {
      if (text === null) continue;
      for (const { id, path } of referencesIn(declared, JSON.parse(text) as Record<string, unknown>)) {
        if (!wanted.has(id)) continue;
        const key = path.slice('fields.'.length).split(/[.[]/)[0] ?? '';
        const at = localized.has(key) ? locale : null;
        const { pageId, instanceKey, componentId } = row;
        const found = { id: row.id, pageId, instanceKey, componentId, path, locale: at, copy: which };
        out.set(JSON.stringify([row.id, which, path, at]), found);
      }
    }
  };
  for (const row of await repo.entriesMentioning(db, projectId, targets, copy)) {
    collect(row, locales?.default ?? null, [
      ['working', copy === 'any' ? row.fields : null],
      ['published', row.publishedFields],
    ]);
  }
  // Other locales' rows, read even where the caller does not know the locales (a deletion's check).
  for (const row of await slotsMentioning(db, projectId, targets, copy)) {
    collect(row, row.locale, [
      ['working', copy === 'any' ? row.fields : null],
      ['published', row.publishedFields],
    ]);
  }
  return [...out.values()].sort(
    (a, b) =>
      byCodeUnits(a.pageId, b.pageId) ||
      byCodeUnits(a.instanceKey, b.instanceKey) ||
      byCodeUnits(a.copy, b.copy) ||
      byCodeUnits(a.path, b.path) ||
      byCodeUnits(a.locale ?? '', b.locale ?? ''),
  );
}

/** The entries (not among `except`) whose published copy refers to one of `targets`, by id. */
export async function publishedReferrers(
  db: DbOrTx,
  projectId: string,
  targets: readonly string[],
  except: ReadonlySet<string>,
  declarationsOf: (definitionFields: string | null) => Declarations,
): Promise<string[]> {
  if (targets.length === 0) return [];
  const rows = await referencesOf(db, projectId, targets, 'published', declarationsOf);
  return [...new Set(rows.map((r) => r.id).filter((id) => !except.has(id)))].sort(byCodeUnits);
}
