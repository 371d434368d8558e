/**
 * Page ids (contract §15 and §17). A page id is a route of the site (`/`, `/about`) or, when it starts
 * with `@` (`@site`, `@footer`), a shared page: it holds definitions and entries like any page and is
 * read the same way, but it is no route (no preview URL is built for it; GET /v1/pages marks it).
 * `home` and other ids without a leading `/` stay valid: part one took any text, and pages stored
 * before these rules keep working, so only a sync checks them (reads take what was stored).
 */

/** The most characters (code points, as the body schema counts them) a page id may have. */
export const PAGE_ID_MAX_LENGTH = 512;

export const isSharedPageId = (pageId: string): boolean => pageId.startsWith('@');

/**
 * An entry id's form (src/shared/ids.ts): `ent_` and 26 Crockford base-32 characters, upper case as
 * newId makes them: the same form a page read refuses (branch i37s's ENTRY_ID_FORM; one of the two
 * can go when both are merged).
 */
const ENTRY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;
// C0 (with DEL) and C1 control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Whitespace other than a space (tab, line breaks, no-break and other Unicode spaces).
const OTHER_SPACE = /[^\S ]/;

/**
 * Why `pageId` cannot be synced, as a phrase that follows "The page id" (null: it can). Refused: `?`
 * and `#` (a path has neither: a site's router would never ask for it), control characters, whitespace
 * other than a space, more than PAGE_ID_MAX_LENGTH characters, and an entry id's form (a client that
 * mixed the two up, whose reads would be taken for entry reads).
 */
export function pageIdProblem(pageId: string): string | null {
  if ([...pageId].length > PAGE_ID_MAX_LENGTH)
    return `must not be longer than ${PAGE_ID_MAX_LENGTH} characters`;
  if (ENTRY_ID.test(pageId))
    return 'has the form of an entry id (ent_…); a page id is a path such as "/about"';
  if (pageId.includes('?')) return 'must not contain "?": a page id is a path, without a query string';
  if (pageId.includes('#')) return 'must not contain "#": a page id is a path, without a fragment';
  if (CONTROL.test(pageId)) return 'must not contain control characters';
  if (OTHER_SPACE.test(pageId)) return 'must not contain whitespace other than a space';
  return null;
}

/**
 * The key GET /v1/pages orders and pages by: the page id's UTF-16 code units, big-endian. Both
 * databases compare bytes (SQLite blobs with memcmp, PostgreSQL bytea likewise), so SQL orders these
 * exactly as the list always was, in code-unit order, whatever the database's collation; ordering
 * the text itself would be code-point order on SQLite and the collation's order on PostgreSQL.
 */
export const pageSortKey = (pageId: string): Buffer => Buffer.from(pageId, 'utf16le').swap16();

/** What `?q=` searches: the page id folded to lower case here, so both databases fold it alike. */
export const pageSearchText = (text: string): string => text.toLowerCase();
