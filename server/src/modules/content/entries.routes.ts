import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { projectIdOf } from '../../http/auth.js';
import { Envelope, errors } from '../../http/schemas.js';
import { notFound } from '../../shared/errors.js';
import { ContentReadQuery, Entry, EntryParams } from './content.schemas.js';
import type { ContentService } from './content.service.js';

const tags = ['Content'];

/**
 * GET /v1/entries/:entryId (registered under /v1/entries): one entry by id, for an editor who holds
 * an id (a history link, a reference) and not its page (contract §15). Its own prefix, not
 * /v1/content/:entryId, whose GET reads a page.
 */
export const entriesRoutes =
  (content: ContentService): FastifyPluginAsyncTypebox =>
  async (app) => {
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
