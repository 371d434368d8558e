import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { Deleted, Envelope, errors } from '../../http/schemas.js';
import { entryIdAsPageId, refuseEntryIdAsPageId } from '../../shared/entry-ids.js';
import { notFound } from '../../shared/errors.js';
import { EntryParams, PageDeleted, PageParams, PageSummary } from './content.schemas.js';
import type { PagesService } from './pages.service.js';

const tags = ['Content'];

const DELETE_EVENT =
  'If it removes published entries, one `content.unpublished` event lists them (the unpublish shape: `fields` and `publishedAt` null, plus `deleted: true` in `data`), written in the same transaction; webhooks and deploy hooks fire, and visitors stop seeing them at once on every instance. A later definitions sync of the same `(pageId, instanceKey)` creates a new stub with a new id.';

const ADMIN_NOTE = "Callers: a project admin's session plus the project's `x-cms-key`.";

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
          description:
            'Every page that has a definition or an entry, ordered by `pageId` (code-unit order). Not paginated: a project holds at most its page limit. `components` counts definitions; `published` entries with a published copy; `drafts` entries whose working copy differs from their published copy or that were never published; `updatedAt` is the latest change to any of its entries or definitions. Callers: any member (session).',
          response: { 200: Envelope(Type.Array(PageSummary)), ...errors(400) },
        },
      },
      async (request) => ({ data: await pages.list(projectIdOf(request)), error: null }),
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

${ADMIN_NOTE}`,
          params: PageParams,
          response: { 200: Envelope(PageDeleted), ...errors(entryIdAsPageId(), notFound('Page')) },
        },
      },
      async (request) => {
        refuseEntryIdAsPageId(request.params.pageId);
        return {
          data: await pages.deletePage(projectIdOf(request), request.params.pageId, userActorOf(request)),
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

${ADMIN_NOTE}`,
          params: EntryParams,
          response: { 200: Deleted, ...errors(400, notFound('Entry')) },
        },
      },
      async (request) => ({
        data: await pages.deleteEntry(projectIdOf(request), request.params.entryId, userActorOf(request)),
        error: null,
      }),
    );
  };
