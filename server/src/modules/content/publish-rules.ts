import type { DbOrTx } from '../../db/database.js';
import { type FieldProblem, type PublishProblem, unpublishable } from '../../shared/errors.js';
import {
  checkPublish,
  type Declarations,
  declarationsOf,
  type ReferenceWritten,
} from '../definitions/field-values.js';
import * as repo from './content.repository.js';

/**
 * The rules of a definition applied to content (contract §13): what would stop a publish, as the
 * `422 unpublishable` of a refused publish and as the `problems` editors read. Computed on demand
 * from the entry and its declarations (read with it, one query), so no stored copy can go stale when
 * a definition changes; the only lookup, whether `link`ed pages exist, is one query for all the
 * entries of a read or a publish.
 */

/** A problem as an editor reads it on an entry (`locale` null: the project has no locales). */
export interface EntryProblem {
  locale: string | null;
  path: string;
  message: string;
}

export interface RuleSubject {
  id: string;
  /** The copy to judge: the working copy (what a publish would make live). */
  fields: string;
  declared: Declarations;
}

/** Every problem of each subject, by entry id (an entry without problems has `[]`). */
export async function problemsOf(
  db: DbOrTx,
  projectId: string,
  subjects: readonly RuleSubject[],
): Promise<Map<string, EntryProblem[]>> {
  const out = new Map<string, EntryProblem[]>();
  const links: { id: string; path: string; pageId: string }[] = [];
  for (const s of subjects) {
    if (s.declared.size === 0) {
      out.set(s.id, []);
      continue;
    }
    const report = checkPublish(s.declared, JSON.parse(s.fields) as Record<string, unknown>);
    out.set(s.id, report.problems.map(asEntryProblem));
    for (const link of report.links) links.push({ id: s.id, ...link });
  }
  if (links.length > 0) {
    const pages = await repo.existingPages(db, projectId, [...new Set(links.map((l) => l.pageId))]);
    for (const link of links) {
      if (pages.has(link.pageId)) continue;
      out.get(link.id)?.push({
        locale: null,
        path: link.path,
        message: `links to "${link.pageId}", a page this project does not have`,
      });
    }
  }
  return out;
}

/** The problems of entries read with their declarations (editor reads and live previews), by entry id. */
export const problemsOfRows = (db: DbOrTx, rows: readonly repo.EntryWithDeclarations[]) =>
  problemsOf(
    db,
    rows[0]?.projectId ?? '',
    rows.map((r) => ({ id: r.id, fields: r.fields, declared: declarationsOf(r.declaredFields) })),
  );

const asEntryProblem = (p: FieldProblem): EntryProblem => ({
  locale: null,
  path: p.path,
  message: p.message,
});

/** Throws `422 unpublishable` listing every problem when any subject breaks a rule; nothing is written. */
export async function assertPublishable(
  db: DbOrTx,
  projectId: string,
  subjects: readonly RuleSubject[],
): Promise<void> {
  if (subjects.every((s) => s.declared.size === 0)) return; // nothing declared: nothing can refuse
  const byEntry = await problemsOf(db, projectId, subjects);
  const all: PublishProblem[] = [];
  for (const [entryId, problems] of byEntry) for (const p of problems) all.push({ entryId, ...p });
  if (all.length > 0) throw unpublishable(all);
}

/**
 * Where the targets of written references are checked: an entry of this project, of one of the
 * field's `componentIds` (contract §13; issue 34 item 4 fills this in). Until then a reference's
 * shape (`ent_…`) is all that is checked, in field-types.ts.
 */
export async function checkReferenceTargets(
  _db: DbOrTx,
  _projectId: string,
  _references: readonly ReferenceWritten[],
): Promise<FieldProblem[]> {
  return [];
}
