import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { Deleted, Envelope, errors } from '../../http/schemas.js';
import { forbidden, notFound, validationFailed } from '../../shared/errors.js';
import { ApiKey, ApiKeyParams, CreateApiKeyBody, CreatedApiKey } from './api-keys.schemas.js';
import type { ApiKeysService } from './api-keys.service.js';

const tags = ['API keys'];
const ADMINS_ONLY = forbidden('Only a site admin can manage secret API keys.');

/** Account-level routes: the rule guarantees a session (a secret key gets 403 from the auth hook). */
const accountOf = (request: FastifyRequest): string => request.auth.session!.accountId;

export const apiKeysRoutes =
  (keys: ApiKeysService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { access: access.accountAdmin },
        schema: {
          tags,
          operationId: 'listApiKeys',
          summary: "List the signed-in account's secret API keys",
          description:
            'Keys belong to the account that created them, not to a project, so no project header is needed. ' +
            'The account must administer at least one site (403 otherwise). Revoked keys are not listed; ' +
            'the secret itself is never returned, only its `prefix`.',
          response: { 200: Envelope(Type.Array(ApiKey)), ...errors(ADMINS_ONLY) },
        },
      },
      async (request) => ({ data: await keys.list(accountOf(request)), error: null }),
    );

    app.post(
      '/',
      {
        config: { access: access.accountAdmin },
        schema: {
          tags,
          operationId: 'createApiKey',
          summary: 'Create a secret API key',
          description:
            'The plaintext `key` (`cms_sk_` + 256 random bits) is returned once, in this response; only a SHA-256 ' +
            'of it is stored. Every site in `projectIds` must be one the caller administers (403 otherwise), and an ' +
            'account that administers no site cannot create keys (403). `projectIds` is required for scope ' +
            '`selected` and must be omitted for `all` (400). Use the key as `Authorization: Bearer cms_sk_…`; ' +
            'add `x-cms-project-id` when it covers more than one site.',
          body: CreateApiKeyBody,
          response: {
            201: Envelope(CreatedApiKey),
            ...errors(
              validationFailed('A key with scope "selected" needs at least one project.', [
                { path: 'body.projectIds', message: 'is required for scope "selected"' },
              ]),
              ADMINS_ONLY,
            ),
          },
        },
      },
      async (request, reply) =>
        reply.code(201).send({ data: await keys.create(userActorOf(request), request.body), error: null }),
    );

    app.delete(
      '/:id',
      {
        config: { access: access.accountAdmin },
        schema: {
          tags,
          operationId: 'revokeApiKey',
          summary: 'Revoke a secret API key',
          description:
            'Takes effect on the very next request on every instance (keys are looked up per request, never ' +
            'cached). Any session of the owning account may revoke; a key of another account, or one already ' +
            'revoked, is 404.',
          params: ApiKeyParams,
          response: { 200: Deleted, ...errors(400, notFound('API key')) },
        },
      },
      async (request) => {
        await keys.revoke(userActorOf(request), request.params.id);
        return { data: { id: request.params.id, deleted: true as const }, error: null };
      },
    );
  };
