import { type AppError, validationFailed } from './errors.js';

/**
 * The form of an entry id (src/shared/ids.ts): `ent_` and 26 Crockford base-32 characters, as newId
 * makes them (upper case). A route that takes a page id and is given one was called by a client that
 * meant to read an entry (contract §15, §17): it gets a 400 that names the route that reads one,
 * instead of an empty page. Only our own upper-case form: a read refuses no page id a sync made.
 */
export const ENTRY_ID_FORM = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;

export const ENTRY_READ_ROUTE = 'GET /v1/entries/:entryId';

/** The 400 for an entry id where a page id belongs (also the OpenAPI example). */
export const entryIdAsPageId = (): AppError =>
  validationFailed(`This is an entry id, not a page id: read one entry with ${ENTRY_READ_ROUTE}.`, [
    { path: 'params.pageId', message: `is an entry id; read an entry with ${ENTRY_READ_ROUTE}` },
  ]);

/** Throws entryIdAsPageId() when `pageId` has the form of an entry id. */
export function refuseEntryIdAsPageId(pageId: string): void {
  if (ENTRY_ID_FORM.test(pageId)) throw entryIdAsPageId();
}
