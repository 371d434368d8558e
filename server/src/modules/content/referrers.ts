import type { DbOrTx } from '../../db/database.js';
import { byCodeUnits } from '../../shared/canonical.js';
import type { Declarations } from '../definitions/index.js';
import { referencesIn } from '../definitions/index.js';
import * as repo from './content.repository.js';

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
  /** The locale of a localized field's value; null for a shared field (this project has no locales). */
  locale: string | null;
  copy: 'working' | 'published';
}

/** Every reference to one of `targets`, one row per referring entry, copy and path. */
export async function referencesOf(
  db: DbOrTx,
  projectId: string,
  targets: readonly string[],
  copy: 'any' | 'published',
  declarationsOf: (definitionFields: string | null) => Declarations,
): Promise<ReferenceRow[]> {
  const wanted = new Set(targets);
  const rows = await repo.entriesMentioning(db, projectId, targets, copy);
  const out: ReferenceRow[] = [];
  for (const row of rows) {
    const declared = declarationsOf(row.declaredFields);
    const copies: [ReferenceRow['copy'], string | null][] = [
      ['working', copy === 'any' ? row.fields : null],
      ['published', row.publishedFields],
    ];
    for (const [which, text] of copies) {
      if (text === null) continue;
      for (const { id, path } of referencesIn(declared, JSON.parse(text) as Record<string, unknown>)) {
        if (!wanted.has(id)) continue;
        const { pageId, instanceKey, componentId } = row;
        out.push({ id: row.id, pageId, instanceKey, componentId, path, locale: null, copy: which });
      }
    }
  }
  return out.sort(
    (a, b) =>
      byCodeUnits(a.pageId, b.pageId) ||
      byCodeUnits(a.instanceKey, b.instanceKey) ||
      byCodeUnits(a.copy, b.copy) ||
      byCodeUnits(a.path, b.path),
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
