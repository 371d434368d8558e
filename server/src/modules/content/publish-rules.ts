import type { DbOrTx } from '../../db/database.js';
import { type FieldProblem, type PublishProblem, unpublishable } from '../../shared/errors.js';
import {
  checkPublish,
  type Declarations,
  declarationsOf,
  mapReferences,
  OMIT,
  publishReport,
  type ReferenceWritten,
  type RuleBudget,
} from '../definitions/index.js';
import * as repo from './content.repository.js';

/**
 * The rules of a definition applied to content (contract §13): what would stop a publish, as the
 * `422 unpublishable` of a refused publish and as the `problems` editors read. The rules' report of
 * a copy is computed once per copy and definition and remembered (publishReport, in definitions:
 * contract §23, never recomputed per read), so it cannot go stale when either changes: a changed
 * copy or definition is another key. Patterns run within the operation's RuleBudget. The lookups,
 * whether `link`ed pages and referenced entries exist, stay one query each for all the entries of
 * a read or a publish, so a page created or an entry deleted since counts at once.
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
  /** The locale judged (its problems carry it); null or absent in a project without locales. */
  locale?: string | null;
}

/** A subject's key in problemsOf's answer: the entry id, and its locale when there is one. */
export const subjectKey = (id: string, locale?: string | null): string => (locale ? `${id} ${locale}` : id);

/** Every problem of each subject, by subjectKey (an entry without problems has `[]`). */
export async function problemsOf(
  db: DbOrTx,
  projectId: string,
  subjects: readonly RuleSubject[],
  /** The operation's rule budget (contract §23), one per request or operation. */
  budget: RuleBudget,
): Promise<Map<string, EntryProblem[]>> {
  const out = new Map<string, EntryProblem[]>();
  const links: { key: string; locale: string | null; path: string; pageId: string }[] = [];
  const judged = subjects
    .filter((s) => s.declared.size > 0)
    .map((s) => ({ s, report: publishReport(s.declared, s.fields, budget) }));
  // §17: a reference to an entry deleted since counts as missing (for `required` and a `min`): one
  // query for every reference of the read, and the rules again on a copy without those ids.
  const referenced = [...new Set(judged.flatMap((j) => j.report.references.map((r) => r.id)))];
  const existing = referenced.length > 0 ? await repo.componentsOfEntries(db, projectId, referenced) : null;
  for (const s of subjects) out.set(subjectKey(s.id, s.locale), []); // in the subjects' order
  for (const { s, report: first } of judged) {
    let report = first;
    if (existing && first.references.some((r) => !existing.has(r.id))) {
      const fields = JSON.parse(s.fields) as Record<string, unknown>;
      const present = mapReferences(s.declared, fields, (id) => (existing.has(id) ? id : OMIT));
      report = checkPublish(s.declared, present, budget);
    }
    const locale = s.locale ?? null;
    out.set(
      subjectKey(s.id, locale),
      report.problems.map((p) => ({ locale, path: p.path, message: p.message })),
    );
    for (const link of report.links) links.push({ key: subjectKey(s.id, locale), locale, ...link });
  }
  if (links.length > 0) {
    const pages = await repo.existingPages(db, projectId, [...new Set(links.map((l) => l.pageId))]);
    for (const link of links) {
      if (pages.has(link.pageId)) continue;
      out.get(link.key)?.push({
        locale: link.locale,
        path: link.path,
        message: `links to "${link.pageId}", a page this project does not have`,
      });
    }
  }
  return out;
}

/** The problems of entries read with their declarations (editor reads and live previews), by entry id. */
export const problemsOfRows = (db: DbOrTx, rows: readonly repo.EntryWithDeclarations[], budget: RuleBudget) =>
  problemsOf(
    db,
    rows[0]?.projectId ?? '',
    rows.map((r) => ({ id: r.id, fields: r.fields, declared: declarationsOf(r.declaredFields) })),
    budget,
  );

/** Throws `422 unpublishable` listing every problem when any subject breaks a rule; nothing is written. */
export async function assertPublishable(
  db: DbOrTx,
  projectId: string,
  subjects: readonly RuleSubject[],
  budget: RuleBudget,
): Promise<void> {
  if (subjects.every((s) => s.declared.size === 0)) return; // nothing declared: nothing can refuse
  const byKey = await problemsOf(db, projectId, subjects, budget);
  const all: PublishProblem[] = [];
  for (const s of subjects) {
    for (const p of byKey.get(subjectKey(s.id, s.locale)) ?? []) all.push({ entryId: s.id, ...p });
  }
  if (all.length > 0) throw unpublishable(all);
}

/**
 * The targets of written references (contract §13): each must be an entry of this project, of one
 * of its field's `componentIds` when it lists some; a shape error (400) with the value's path
 * otherwise. One query for every reference of the write. An entry of another project reads as no
 * entry at all (its existence is not disclosed).
 */
export async function checkReferenceTargets(
  db: DbOrTx,
  projectId: string,
  references: readonly ReferenceWritten[],
): Promise<FieldProblem[]> {
  const components = await repo.componentsOfEntries(db, projectId, [...new Set(references.map((r) => r.id))]);
  const problems: FieldProblem[] = [];
  for (const r of references) {
    const componentId = components.get(r.id);
    if (componentId === undefined)
      problems.push({ path: r.path, message: `"${r.id}" is not an entry of this project` });
    else if (r.componentIds && r.componentIds.length > 0 && !r.componentIds.includes(componentId))
      problems.push({
        path: r.path,
        message: `"${r.id}" is a ${componentId}; this field refers to ${r.componentIds.join(', ')} only`,
      });
  }
  return problems;
}
