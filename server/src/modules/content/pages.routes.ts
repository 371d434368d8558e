import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { Deleted, Envelope, errors, PageEnvelope } from '../../http/schemas.js';
import { decodeKeyCursor, encodeCursor } from '../../shared/cursor.js';
import { entryIdAsPageId, refuseEntryIdAsPageId } from '../../shared/entry-ids.js';
import { AppError, notFound } from '../../shared/errors.js';
import {
  EntryParams,
  ForceQuery,
  PAGES_PER_LIST,
  PageDeleted,
  PageParams,
  PageSummary,
  PagesQuery,
} from './content.schemas.js';
import type { PagesService } from './pages.service.js';

const tags = ['Content'];

const DELETE_EVENT =
  'If it removes published entries, one `content.unpublished` event lists them (the unpublish shape: `fields` and `publishedAt` null, plus `deleted: true` in `data`), written in the same transaction; webhooks and deploy hooks fire, and visitors stop seeing them at once on every instance. A later definitions sync of the same `(pageId, instanceKey)` creates a new stub with a new id.';

const ADMIN_NOTE = "Callers: a project admin's session plus the project's `x-cms-key`.";

/** The 409 of deleting what other entries' published content refers to (contract §13), as the document's example. */
const REFERENCED = new AppError(
  'conflict',
  409,
  'Published content of 1 other entry refers to this; delete with ?force=true to leave those references missing.',
  { referencedBy: ['ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2'] },
);

const REFERENCED_NOTE =
  'When published content of other entries (other pages, for a page) refers to what would be deleted through a `reference` field, the answer is 409 `conflict` with `details: { referencedBy: [entryId…] }` and nothing is deleted, unless `?force=true`: then those references read as missing (`null`, or left out of a multiple reference).';

/** GET /v1/pages and DELETE /v1/pages/:pageId (registered under /v1/pages). */
export const pagesRoutes =
  (pages: PagesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'listPages',
          summary: 'Pages of the project',
          description: `Every page that has a definition or an entry, ordered by \`pageId\` (code-unit order). \`shared\` is true for a shared page (an id starting with \`@\`, such as \`@site\`: no route of the site). \`components\` counts definitions; \`published\` entries with a published copy; \`drafts\` entries whose working copy differs from their published copy or that were never published; \`updatedAt\` is the latest change to any of its entries or definitions.

\`?q=\` keeps the pages whose id contains the text, case-insensitively. Paginated: \`?limit=\` (default and max ${PAGES_PER_LIST}) and \`?cursor=\` from \`meta.nextCursor\`, which appears while more remain; a project of at most ${PAGES_PER_LIST} pages answers them all at once, as before pagination. A project holds at most CMS_MAX_PAGES_PER_PROJECT pages (default 20000). A cursor that is not one of this list's is 400.

Callers: any member (session).`,
          querystring: PagesQuery,
          response: { 200: PageEnvelope(PageSummary), ...errors(400) },
        },
      },
      async (request) => {
        const { q, limit, cursor } = request.query;
        const { pages: data, next } = await pages.list(projectIdOf(request), {
          q,
          limit,
          after: decodeKeyCursor(cursor),
        });
        return next === undefined
          ? { data, error: null }
          : { data, error: null, meta: { nextCursor: encodeCursor(next) } };
      },
    );

    app.delete(
      '/:pageId',
      {
        config: { access: access.adminWithSiteKey },
        schema: {
          tags,
          operationId: 'deletePage',
          summary: 'Delete a page',
          description: `The page path is URL-encoded ("/" becomes %2F). Removes every entry (with its history) and every definition of the page in one transaction and answers the ids of the entries removed. An unknown page (no entry, no definition) is 404; a page id with the form of an entry id is 400 naming \`GET /v1/entries/:entryId\` (delete an entry with \`DELETE /v1/content/:entryId\`). ${DELETE_EVENT}

${REFERENCED_NOTE}

${ADMIN_NOTE}`,
          params: PageParams,
          querystring: ForceQuery,
          response: {
            200: Envelope(PageDeleted),
            ...errors(entryIdAsPageId(), notFound('Page'), REFERENCED),
          },
        },
      },
      async (request) => {
        refuseEntryIdAsPageId(request.params.pageId);
        return {
          data: await pages.deletePage(
            projectIdOf(request),
            request.params.pageId,
            userActorOf(request),
            request.query.force === true,
          ),
          error: null,
        };
      },
    );
  };

/** DELETE /v1/content/:entryId (registered under /v1/content beside contentRoutes). */
export const entryDeletionRoutes =
  (pages: PagesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.delete(
      '/:entryId',
      {
        config: { access: access.adminWithSiteKey },
        schema: {
          tags,
          operationId: 'deleteEntry',
          summary: 'Delete an entry',
          description: `Removes the entry, its definition and its history. Afterwards its id is 404 everywhere. ${DELETE_EVENT}

${REFERENCED_NOTE}

${ADMIN_NOTE}`,
          params: EntryParams,
          querystring: ForceQuery,
          response: { 200: Deleted, ...errors(400, notFound('Entry'), REFERENCED) },
        },
      },
      async (request) => ({
        data: await pages.deleteEntry(
          projectIdOf(request),
          request.params.entryId,
          userActorOf(request),
          request.query.force === true,
        ),
        error: null,
      }),
    );
  };
