import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { projectIdOf } from '../../http/auth.js';
import { pageEnvelope } from '../../http/pagination.js';
import { errors, PageEnvelope, PageQuery } from '../../http/schemas.js';
import { Deploy, DeploysParams } from './deploys.schemas.js';
import type { DeploysService } from './deploys.service.js';

/** Registered under the /v1/projects prefix, beside the projects plugin. */
export const deploysRoutes =
  (deploys: DeploysService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/:id/deploys',
      {
        config: { access: access.adminOfParam },
        schema: {
          tags: ['Deploys'],
          operationId: 'listDeploys',
          summary: "The project's deploy hook calls, newest first (paginated)",
          description:
            'Every publish (content publish, bulk publish, unpublish, published object save) feeds a durable per-project trigger that fires after CMS_DEPLOY_DEBOUNCE_MS without a new publish, and at most 5× that after the first publish of a burst; one process fires it. Each deploy hook then gets one call, recorded here and retried on CMS_WEBHOOK_RETRY_SCHEDULE like a webhook delivery. `generic`: POST `{ type: "deploy.requested", projectId, reasons, requestedAt }`, signed per Standard Webhooks when the hook has a secret (`webhook-id` = the deploy id). `github_repository_dispatch`: POST `{ event_type: "cms-publish", client_payload: { projectId, version } }` with `Authorization: Bearer <secret>`, `Accept: application/vnd.github+json`, `X-GitHub-Api-Version: 2022-11-28`. Same outbound safety rules as webhooks.',
          params: DeploysParams,
          querystring: PageQuery,
          response: { 200: PageEnvelope(Deploy), ...errors(400, 401, 403) },
        },
      },
      async (request) =>
        pageEnvelope(await deploys.list(projectIdOf(request), request.query), request.query.limit),
    );
  };
