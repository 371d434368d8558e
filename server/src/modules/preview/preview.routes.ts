import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { projectIdOf } from '../../http/auth.js';
import { Envelope, errors } from '../../http/schemas.js';
import { CreatePreviewTokenBody, PreviewToken } from './preview.schemas.js';
import type { PreviewService } from './preview.service.js';

const tags = ['Preview'];

export const previewRoutes =
  (preview: PreviewService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/',
      {
        config: { access: access.member },
        // The body is optional (every property is): a POST without one means `{}`.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          operationId: 'createPreviewToken',
          summary: 'Create a preview token',
          description: `The body is optional. A read-only credential for a site's preview of unpublished content, for any member (any role) of the project. The project is the request's (\`x-cms-key\`, \`x-cms-project-id\`, or the session's only project).

With \`x-cms-preview: <token>\` beside the project's \`x-cms-key\`: \`GET /v1/content/:pageId\` answers what a member's session sees (every entry, working fields), \`GET /v1/objects?draft=true\` the draft overlay, and \`GET /v1/live\` streams working-copy changes too; these answers are \`Cache-Control: private, no-store\`. An unknown or expired token is 401 on any route; a token of another project than the key's is 403; on every other route (all writes included) a valid token is 403, because it is read-only. It cannot be revoked: keep \`ttlSeconds\` short. Expired tokens are deleted by the worker.`,
          body: CreatePreviewTokenBody,
          response: { 201: Envelope(PreviewToken), ...errors(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const token = await preview.create(
          projectIdOf(request),
          request.auth.session!.accountId,
          request.body.ttlSeconds,
        );
        return reply.code(201).send({ data: token, error: null });
      },
    );
  };
