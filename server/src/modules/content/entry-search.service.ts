import type { Db } from '../../db/database.js';
import { decodeKeyCursor, encodeCursor } from '../../shared/cursor.js';
import { validationFailed } from '../../shared/errors.js';
import { searchEntries } from './entry-search.repository.js';
import { titleOfFields } from './entry-title.js';

export interface EntrySearchInput {
  q?: string;
  pageId?: string;
  componentId?: string[];
  ids?: string[];
  limit: number;
  cursor?: string;
}

/**
 * The list is ordered by (pageId, instanceKey), unique within a project, so the cursor carries that
 * pair: JSON in base64url. What encodeCursor did not make, or a pair of something else, is a 400.
 */
function decodePair(cursor: string | undefined): [string, string] | undefined {
  const text = decodeKeyCursor(cursor);
  if (text === undefined) return undefined;
  let pair: unknown;
  try {
    pair = JSON.parse(text);
  } catch {
    pair = null;
  }
  if (Array.isArray(pair) && pair.length === 2 && pair.every((p) => typeof p === 'string'))
    return pair as [string, string];
  throw validationFailed('The cursor is not valid.', [
    { path: 'querystring.cursor', message: 'is not a cursor from this list' },
  ]);
}

/** The cursor continuing after a row of the search. */
export const entrySearchCursor = (row: { pageId: string; instanceKey: string }): string =>
  encodeCursor(JSON.stringify([row.pageId, row.instanceKey]));

/** GET /v1/entries: entries of the project found by what an editor types, or named by id (issue 44). */
export function createEntrySearch(db: Db) {
  return {
    async search(projectId: string, input: EntrySearchInput) {
      const rows = await searchEntries(db, projectId, {
        q: input.q,
        pageId: input.pageId,
        componentIds: input.componentId,
        ids: input.ids,
        after: decodePair(input.cursor),
        limit: input.limit + 1,
      });
      // One row more than asked: pageEnvelope (src/http/pagination.ts) learns from it whether more remain.
      return rows.map(({ published, head, ...row }) => ({
        id: row.id,
        pageId: row.pageId,
        instanceKey: row.instanceKey,
        componentId: row.componentId,
        title: titleOfFields(head),
        status: published ? ('published' as const) : ('draft' as const),
        publishedAt: row.publishedAt,
        updatedAt: row.updatedAt,
      }));
    },
  };
}

export type EntrySearch = ReturnType<typeof createEntrySearch>;
