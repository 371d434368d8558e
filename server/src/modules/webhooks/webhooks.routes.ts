import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { pageEnvelope } from '../../http/pagination.js';
import { Deleted, Envelope, errors, PageEnvelope, PageQuery } from '../../http/schemas.js';
import { conflict, notFound } from '../../shared/errors.js';
import {
  CreateWebhookBody,
  Delivery,
  DeliveryParams,
  RecoverBody,
  Recovered,
  RotatedSecret,
  UpdateWebhookBody,
  Webhook,
  WebhookList,
  WebhookParams,
  WebhookWithSecret,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

const tags = ['Webhooks'];
const rule = access.admin;

const TARGETS =
  'The URL must be http(s); its host is resolved and refused (400) when any address is loopback, private, CGNAT, link-local/metadata, multicast or reserved (IPv4, IPv6, IPv4-mapped IPv6), unless the server runs with CMS_ALLOW_PRIVATE_HOOK_TARGETS=true. A name that does not resolve yet is accepted; every attempt checks again and connects to the address it checked.';

const DELIVERY =
  'Deliveries are made by the worker from the outbox, never inside the publishing request. Each attempt is a POST of `{ type, timestamp, data }` signed per Standard Webhooks: `webhook-id` (the delivery id, the same on every retry and redelivery — de-duplicate on it), `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`. Success is a 2xx within CMS_WEBHOOK_TIMEOUT_MS; redirects are failures and never followed. Failures retry on CMS_WEBHOOK_RETRY_SCHEDULE (plus up to 20% jitter), then the delivery is `failed`; a 429/503 `Retry-After` is waited at least; a 410 deactivates the webhook. Deliveries older than CMS_DELIVERY_RETENTION_DAYS (30) are pruned.';

export const webhooksRoutes =
  (webhooks: WebhooksService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'listWebhooks',
          summary: "List the project's webhooks and the event catalog",
          description: `Secrets are never listed. ${DELIVERY}`,
          response: { 200: Envelope(WebhookList), ...errors(400) },
        },
      },
      async (request) => ({ data: await webhooks.list(projectIdOf(request)), error: null }),
    );

    app.post(
      '/',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'createWebhook',
          summary: 'Create a webhook',
          description: `The signing secret (\`whsec_…\`) is in this response only; it is stored encrypted (AES-256-GCM under CMS_ENCRYPTION_KEY). \`events\` lists catalog types or "*". ${TARGETS}`,
          body: CreateWebhookBody,
          response: { 201: Envelope(WebhookWithSecret), ...errors(400) },
        },
      },
      async (request, reply) =>
        reply.code(201).send({
          data: await webhooks.create(projectIdOf(request), request.body, userActorOf(request)),
          error: null,
        }),
    );

    app.patch(
      '/:id',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'patchWebhook',
          summary: 'Update a webhook (url, events, description, active)',
          description: `An inactive webhook receives nothing: deliveries still pending when it is deactivated end as \`failed\` ("webhook is inactive") and can be redelivered after reactivation. ${TARGETS}`,
          params: WebhookParams,
          body: UpdateWebhookBody,
          response: { 200: Envelope(Webhook), ...errors(400, notFound('Webhook')) },
        },
      },
      async (request) => ({
        data: await webhooks.update(
          projectIdOf(request),
          request.params.id,
          request.body,
          userActorOf(request),
        ),
        error: null,
      }),
    );

    app.delete(
      '/:id',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook and its delivery log',
          params: WebhookParams,
          response: { 200: Deleted, ...errors(400, notFound('Webhook')) },
        },
      },
      async (request) => {
        await webhooks.remove(projectIdOf(request), request.params.id, userActorOf(request));
        return { data: { id: request.params.id, deleted: true as const }, error: null };
      },
    );

    app.post(
      '/:id/rotate-secret',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'rotateWebhookSecret',
          summary: 'Replace the signing secret',
          description:
            'The new secret is shown once. Every attempt from now on, retries included, is signed with it only.',
          params: WebhookParams,
          response: { 200: Envelope(RotatedSecret), ...errors(400, notFound('Webhook')) },
        },
      },
      async (request) => ({
        data: await webhooks.rotateSecret(projectIdOf(request), request.params.id, userActorOf(request)),
        error: null,
      }),
    );

    app.get(
      '/:id/deliveries',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'listDeliveries',
          summary: "A webhook's deliveries, newest first (paginated)",
          description: `${DELIVERY} \`responseBody\` holds the first 1024 bytes of the last answer.`,
          params: WebhookParams,
          querystring: PageQuery,
          response: { 200: PageEnvelope(Delivery), ...errors(400, notFound('Webhook')) },
        },
      },
      async (request) =>
        pageEnvelope(
          await webhooks.deliveries(projectIdOf(request), request.params.id, request.query),
          request.query.limit,
        ),
    );

    app.post(
      '/:id/test',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'testWebhook',
          summary: 'Send a ping now and return its delivery record',
          description:
            'Sends `{ type: "ping", timestamp, data: { projectId, webhookId } }` inside this request (so it waits up to CMS_WEBHOOK_TIMEOUT_MS), signed like every delivery, even when the webhook is inactive (an explicit check before enabling it). The outcome is recorded in the delivery log; a failed ping is not retried automatically (redeliver it).',
          params: WebhookParams,
          response: { 200: Envelope(Delivery), ...errors(400, notFound('Webhook')) },
        },
      },
      async (request) => ({
        data: await webhooks.test(projectIdOf(request), request.params.id),
        error: null,
      }),
    );

    app.post(
      '/:id/deliveries/:deliveryId/redeliver',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'redeliverDelivery',
          summary: 'Queue an immediate new attempt of a delivery',
          description:
            'Same delivery id and `webhook-id`, same body; `attemptCount` goes on counting. Returns the record as `pending`. A delivery whose retry schedule was used up gets this one attempt; if it fails it is `failed` again.',
          params: DeliveryParams,
          response: { 200: Envelope(Delivery), ...errors(400, notFound('Delivery')) },
        },
      },
      async (request) => ({
        data: await webhooks.redeliver(projectIdOf(request), request.params.id, request.params.deliveryId),
        error: null,
      }),
    );

    app.post(
      '/:id/recover',
      {
        config: { access: rule },
        schema: {
          tags,
          operationId: 'recoverDeliveries',
          summary: 'Queue every failed delivery since a time again (after a receiver outage)',
          description:
            "Every delivery of this webhook whose status is `failed` and that was created at or after `since` is queued for an immediate new attempt, as redeliver does for one: same delivery id and `webhook-id`, same body, `attemptCount` goes on counting; the worker sends them as capacity allows. Answers `{ requeued }`. `since` must be an ISO time at most 30 days back (a minute of clock skew is tolerated; older is 400 — deliveries are kept CMS_DELIVERY_RETENTION_DAYS anyway). An inactive webhook is 409 (reactivate it first); another project's webhook is 404.",
          params: WebhookParams,
          body: RecoverBody,
          response: {
            200: Envelope(Recovered),
            ...errors(
              400,
              notFound('Webhook'),
              conflict('The webhook is inactive; reactivate it before recovering its deliveries.'),
            ),
          },
        },
      },
      async (request) => ({
        data: await webhooks.recover(projectIdOf(request), request.params.id, request.body.since),
        error: null,
      }),
    );
  };
