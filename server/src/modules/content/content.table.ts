import type { Generated, Selectable } from 'kysely';

/**
 * A content entry. `fields` is the working copy, `publishedFields` the published one (null when not
 * live); both are canonical JSON text, so equal maps are equal strings.
 */
export interface ContentEntriesTable {
  id: string;
  projectId: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  fields: string;
  publishedFields: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** 1 for a new stub, one more on every change (contract §7); `If-Match` compares against it. */
  version: Generated<number>;
  /** The version the published copy was made at (what visitors see); null while not live. */
  publishedVersion: number | null;
  /**
   * In a project with locales: how many times a shared value changed. Another locale's version is its
   * own count plus this (migration 0020), so a shared edit moves every locale's version.
   */
  sharedVersion: Generated<number>;
}

/**
 * An entry's slot in a locale other than the project's default (the entry's own row is the default's):
 * `fields` holds that locale's values of localized fields only, canonical JSON; `publishedFields` its
 * published copy (the shared values as they were at its publish and its own localized values); `version`
 * its own changes (contract §17; migration 0020).
 */
export interface EntryLocalesTable {
  entryId: string;
  locale: string;
  projectId: string;
  fields: string;
  publishedFields: string | null;
  publishedAt: string | null;
  version: number;
  publishedVersion: number | null;
  updatedAt: string;
}

/**
 * One row per page of the project (a page id with a definition or an entry): the list GET /v1/pages
 * pages through and searches without scanning every entry (migration 0019). Written by the definitions
 * sync (with the stubs) and removed with the page's last entry and definition.
 */
export interface ContentPagesTable {
  projectId: string;
  pageId: string;
  /** The page id's UTF-16 code units, big-endian (shared/page-ids.ts): the list's order and cursor. */
  sortKey: Buffer;
  /** The page id in lower case, for `?q=`. */
  search: string;
}

/**
 * The publish audit trail: one row per publish or unpublish of an entry, and `saved` for a working
 * copy that a restore replaced while no other row held it (contract §15).
 */
export interface EntryHistoryTable {
  id: string;
  projectId: string;
  entryId: string;
  action: 'publish' | 'unpublish' | 'saved';
  /** Canonical JSON: the fields published, taken down, or kept from before a restore. */
  fields: string;
  actorId: string;
  actorEmail: string;
  at: string;
  /** The locale the record was made in; null in a project without locales (contract §14). */
  locale: string | null;
}

export type EntryRow = Selectable<ContentEntriesTable>;
export type HistoryRow = Selectable<EntryHistoryTable>;
export type EntryLocaleRow = Selectable<EntryLocalesTable>;
