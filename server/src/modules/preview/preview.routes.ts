import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { Envelope, errors } from '../../http/schemas.js';
import { CreatePreviewTokenBody, PreviewToken, PreviewTokensEnded } from './preview.schemas.js';
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

With \`x-cms-preview: <token>\` beside the project's \`x-cms-key\`: \`GET /v1/content/:pageId\` answers what a member's session sees (every entry, working fields), \`GET /v1/objects?draft=true\` the draft overlay, and \`GET /v1/live\` streams working-copy changes too; these answers are \`Cache-Control: private, no-store\`. \`POST /v1/definitions/sync\` ignores it (a site in preview still registers its components); \`GET /v1/snapshot\` answers 403 (a build never previews); every other route answers 400 \`validation_failed\` at \`headers.x-cms-preview\`, whatever else the request carries. An unknown, ended or expired token is 401; a token of another project than the key's is 403.

A token ends before it expires — at once on every server, open live streams included — when its creator leaves the project or their role in it changes, when the creator's password changes, when the project's publishable key is rotated, and on \`DELETE /v1/preview-tokens\`. Expired tokens are deleted by the worker.`,
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

    app.delete(
      '/',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'endPreviewTokens',
          summary: 'End your preview tokens',
          description:
            "Ends every preview token the caller created in the project (the request's, as for POST), at once on every server: reads with one of them are 401 and live streams opened with one end. Other members' tokens are untouched. Answers how many ended; an activity record `preview_tokens.revoked` is written when any did.",
          response: { 200: Envelope(PreviewTokensEnded), ...errors(400, 401, 403) },
        },
      },
      async (request) => ({
        data: { deleted: await preview.endMine(projectIdOf(request), userActorOf(request)) },
        error: null,
      }),
    );
  };
