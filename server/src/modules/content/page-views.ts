import type { Db } from '../../db/database.js';
import { byPosition } from '../definitions/definitions.repository.js';
import * as repo from './content.repository.js';
import { type Entry, type Fields, toEntry } from './content.service.js';

/** A page's entries as each kind of caller sees them in GET /v1/content/:pageId, in page order. */
export interface PageViews {
  /** Visitors: entries with a published copy, showing it (the shape published-pages.ts serialises). */
  visitor: Entry[];
  /** A member's session or a preview token: every entry, working fields. */
  editor: Entry[];
}

/**
 * Both views of one page from one query: live streams (src/modules/live) reload a page once per
 * change and fan it out to every stream, whichever view each one has. Built on toEntry so a field
 * added to entries reaches the streams too.
 */
export async function pageViews(db: Db, projectId: string, pageId: string): Promise<PageViews> {
  const rows = await repo.entriesOfPage(db, projectId, pageId);
  rows.sort(byPosition);
  const editor: Entry[] = [];
  const visitor: Entry[] = [];
  for (const row of rows) {
    const entry = toEntry(row);
    editor.push(entry);
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
  return { visitor, editor };
}
