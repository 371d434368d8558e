import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { projectIdOf } from '../../http/auth.js';
import { Envelope, errors } from '../../http/schemas.js';
import { AppError } from '../../shared/errors.js';
import { Definition, PageParams, SyncBody, SyncResult } from './definitions.schemas.js';
import type { DefinitionsService } from './definitions.service.js';
import { LIMITS } from './limits.js';

const tags = ['Definitions'];
const PAGE_LIMIT = new AppError(
  'conflict',
  409,
  `A page can hold at most ${LIMITS.componentsPerPage} components.`,
  { limit: LIMITS.componentsPerPage },
);

const SYNC_DESCRIPTION = `Called by the site's SDK with the publishable key (x-cms-key). Additive and idempotent: each \`(pageId, instanceKey)\` definition is upserted (its \`componentId\` and \`fields\` replaced by the ones sent); definitions not sent are kept; a stub entry (\`fields: {}\`, \`status: "draft"\`) is created only where none exists. An unchanged sync writes nothing.

Field types: \`text\`, \`richtext\`, \`number\`, \`boolean\`, \`image\`, \`url\`, \`json\`; anything else is 400. An instanceKey or field key sent twice in one request is 400.

Limits (the publishable key is public, so they bound what a stranger can add): at most ${LIMITS.componentsPerSync} components per request and ${LIMITS.fieldsPerComponent} fields per component (400); page paths up to ${LIMITS.pagePathLength} characters, componentId, instanceKey and field keys up to ${LIMITS.keyLength} (400); at most ${LIMITS.componentsPerPage} components on one page and ${LIMITS.pagesPerProject} pages per project, counting every sync (409 \`conflict\` with \`details.limit\`).

Browsers: answers CORS for the project's \`domains\` (any origin while the list is empty).`;

export const definitionsRoutes =
  (definitions: DefinitionsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/sync',
      {
        config: { access: access.siteKey },
        schema: {
          tags,
          operationId: 'syncDefinitions',
          summary: "Register a page's components and create their stub entries",
          description: SYNC_DESCRIPTION,
          body: SyncBody,
          response: { 200: Envelope(SyncResult), ...errors(400, PAGE_LIMIT) },
        },
      },
      async (request) => ({
        data: await definitions.sync(projectIdOf(request), request.body.pageId, request.body.components),
        error: null,
      }),
    );

    app.get(
      '/:pageId',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'listDefinitions',
          summary: 'Component definitions of a page (for the dashboard)',
          description:
            'The page path is URL-encoded ("/" becomes %2F). Ordered by instanceKey; an unknown page gives an empty list.',
          params: PageParams,
          response: { 200: Envelope(Type.Array(Definition)), ...errors(400, 401, 403) },
        },
      },
      async (request) => ({
        data: await definitions.ofPage(projectIdOf(request), request.params.pageId),
        error: null,
      }),
    );
  };
