import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { projectIdOf } from '../../http/auth.js';
import { pageEnvelope } from '../../http/pagination.js';
import { Envelope, errors, PageEnvelope } from '../../http/schemas.js';
import { notFound } from '../../shared/errors.js';
import { ContentReadQuery, Entry, EntryParams } from './content.schemas.js';
import type { ContentService } from './content.service.js';
import {
  ENTRIES_PER_SEARCH,
  EntrySearchQuery,
  EntrySummary,
  SEARCH_TEXT_MAX,
} from './entry-search.schemas.js';
import { type EntrySearch, entrySearchCursor } from './entry-search.service.js';

const tags = ['Content'];

/**
 * GET /v1/entries/:entryId (registered under /v1/entries): one entry by id, for an editor who holds
 * an id (a history link, a reference) and not its page (contract §15). Its own prefix, not
 * /v1/content/:entryId, whose GET reads a page. GET /v1/entries: the entry search of a reference's
 * picker (issue 44), which named only the entries of the first 20 pages it read.
 */
export const entriesRoutes =
  (content: ContentService, search: EntrySearch): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'searchEntries',
          summary: 'Find entries (a reference picker)',
          description: `Entries of the project, each named by where it is and what it is (\`pageId\`, \`instanceKey\`, \`componentId\`, \`status\`), without fields: what a reference's picker lists as an editor types, and how it names the entries already chosen (\`?ids=\`). Filters combine: \`q\` (at most ${SEARCH_TEXT_MAX} characters) keeps entries whose page id or instance key contains it, case-insensitively; \`pageId\` one page; \`componentId\` (repeatable) some components; \`ids\` (repeatable, at most ${ENTRIES_PER_SEARCH.max}) some entries. Another project's entries are never listed.

Ordered by page id then instance key. Paginated: \`?limit=\` (default ${ENTRIES_PER_SEARCH.default}, at most ${ENTRIES_PER_SEARCH.max}) and \`?cursor=\` from \`meta.nextCursor\`, which appears while more remain; a cursor that is not one of this list's is 400. Text in the field values is not searched (it would read every entry's fields).

Callers: any member (session).`,
          querystring: EntrySearchQuery,
          response: { 200: PageEnvelope(EntrySummary), ...errors(400) },
        },
      },
      async (request) => {
        const { limit } = request.query;
        const rows = await search.search(projectIdOf(request), request.query);
        return pageEnvelope(rows, limit, entrySearchCursor);
      },
    );

    app.get(
      '/:entryId',
      {
        config: { access: access.memberWithSiteKey },
        schema: {
          tags,
          operationId: 'getEntry',
          summary: 'One entry, as an editor reads it',
          description:
            "The entry exactly as `GET /v1/content/:pageId` shows it to the same caller: its working fields, with `status` \"published\" only while they equal the published copy. Callers: a member's session (any role) plus the project's `x-cms-key`, or a preview token (`x-cms-preview`) beside the key. An id that is not an entry of the key's project is 404. Answers are `Cache-Control: private, no-store`. References (contract §13): a preview token reads them resolved against working copies down to `?depth=` (0-3, default 1), as on `GET /v1/content/:pageId`; a member's session reads the stored ids unless it sends `?resolve=true`. Languages (contract §14, §17): `?locale=` reads the working copy in that locale through its fallback chain (`fallbacks` names what came from another locale), `?fallback=false` its own copy only; `locales` gives every locale's `status`, `publishedAt` and `version`, and `problems` cover every locale.",
          params: EntryParams,
          querystring: ContentReadQuery,
          response: { 200: Envelope(Entry), ...errors(400, 401, 403, notFound('Entry')) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        const projectId = projectIdOf(request);
        const { entryId } = request.params;
        const { depth, resolve } = request.query;
        const resolved = request.auth.session === null || resolve === true;
        const { locale, fallback } = request.query;
        const data = resolved
          ? await content.entryResolved(projectId, entryId, depth, locale, fallback !== false)
          : await content.entryForEditor(projectId, entryId, locale, fallback !== false);
        return { data, error: null };
      },
    );
  };
