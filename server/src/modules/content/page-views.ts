import type { Db } from '../../db/database.js';
import { byCodeUnits } from '../../shared/canonical.js';
import * as repo from './content.repository.js';
import { type Entry, type Fields, toEntry } from './content.service.js';
import { problemsOfRows } from './publish-rules.js';

/** A page's entries as each kind of caller sees them in GET /v1/content/:pageId, ordered by instanceKey. */
export interface PageViews {
  /** Visitors: entries with a published copy, showing it (the shape published-pages.ts serialises). */
  visitor: Entry[];
  /**
   * A member's session or a preview token: every entry, working fields, and its `problems` (contract
   * §13). Null when not asked for (no stream shows drafts): those checks stay off visitors' path.
   */
  editor: Entry[] | null;
}

/**
 * Both views of one page from one query: live streams (src/modules/live) reload a page once per
 * change and fan it out to every stream, whichever view each one has. Built on toEntry so a field
 * added to entries reaches the streams too.
 */
export async function pageViews(
  db: Db,
  projectId: string,
  pageId: string,
  /** Whether the editor view is wanted: its `problems` are computed only then (visitors never wait on them). */
  drafts = true,
): Promise<PageViews> {
  const rows = drafts
    ? await repo.entriesOfPageWithDeclarations(db, projectId, pageId)
    : await repo.entriesOfPage(db, projectId, pageId);
  rows.sort((a, b) => byCodeUnits(a.instanceKey, b.instanceKey));
  const problems = drafts ? await problemsOfRows(db, rows as repo.EntryWithDeclarations[]) : new Map();
  const editor: Entry[] = [];
  const visitor: Entry[] = [];
  for (const row of rows) {
    const entry = toEntry(row);
    if (drafts) editor.push({ ...entry, problems: problems.get(row.id) ?? [] });
    if (row.publishedFields === null) continue;
    visitor.push({
      ...entry,
      fields: JSON.parse(row.publishedFields) as Fields,
      status: 'published',
      updatedAt: row.publishedAt ?? row.updatedAt,
      // The version the published copy was made at (published-pages.ts): a draft save changes nothing here.
      version: row.publishedVersion ?? row.version,
    });
  }
  return { visitor, editor: drafts ? editor : null };
}
