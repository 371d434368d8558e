import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { attemptOutcomeProperties } from '../../jobs/attempts.schemas.js';
import { EVENT_TYPES } from '../../outbox/index.js';

const webhookExample = {
  id: 'whk_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
  url: 'https://example.com/hooks/folio',
  events: ['content.published', 'content.unpublished'],
  description: 'Rebuild search index',
  active: true,
  createdAt: '2026-11-21T09:30:00.000Z',
  updatedAt: '2026-11-21T09:30:00.000Z',
};
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3l2QeKb8Ktw=';

const HookUrl = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2048,
  examples: ['https://example.com/hooks/folio'],
});

const EventName = Type.Union([...EVENT_TYPES.map((e) => Type.Literal(e.type)), Type.Literal('*')], {
  description: 'A catalog event type, or "*" for all of them.',
});
const EventList = Type.Array(EventName, { minItems: 1, maxItems: 20, uniqueItems: true });
const Description = Type.String({ maxLength: 500 });

export const Webhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Type.String(),
    active: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Webhook', examples: [webhookExample] },
);

export const WebhookWithSecret = Type.Object(
  { ...Webhook.properties, secret: Type.String({ description: 'Shown only here and by rotate-secret.' }) },
  { title: 'WebhookWithSecret', examples: [{ ...webhookExample, secret: secretExample }] },
);

export const WebhookList = Type.Object(
  {
    webhooks: Type.Array(Webhook),
    eventTypes: Type.Array(Type.Object({ type: Type.String(), description: Type.String() })),
  },
  { title: 'WebhookList', examples: [{ webhooks: [webhookExample], eventTypes: EVENT_TYPES.slice(0, 2) }] },
);

export const WebhookParams = Strict({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const DeliveryParams = Strict({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const CreateWebhookBody = Strict(
  { url: HookUrl, events: EventList, description: Type.Optional(Description) },
  {
    title: 'CreateWebhookBody',
    examples: [
      { url: 'https://example.com/hooks/folio', events: ['content.published'], description: 'Search' },
    ],
  },
);

export const UpdateWebhookBody = Strict(
  {
    url: Type.Optional(HookUrl),
    events: Type.Optional(EventList),
    description: Type.Optional(Description),
    active: Type.Optional(Type.Boolean()),
  },
  { title: 'UpdateWebhookBody', minProperties: 1, examples: [{ active: false }] },
);

export const RotatedSecret = Type.Object(
  { secret: Type.String() },
  { title: 'RotatedSecret', examples: [{ secret: secretExample }] },
);

const deliveryExample = {
  id: 'dlv_01JD3ZM0000000000000000000',
  webhookId: webhookExample.id,
  eventId: 'evt_01JD3ZM0000000000000000000',
  eventType: 'content.published',
  status: 'succeeded',
  responseCode: 200,
  attemptCount: 1,
  lastAttemptAt: '2026-11-21T09:30:01.120Z',
  nextAttemptAt: null,
  durationMs: 84,
  error: null,
  responseBody: 'ok',
  createdAt: '2026-11-21T09:30:01.000Z',
};

export const Delivery = Type.Object(
  {
    id: Type.String({ description: 'Also the `webhook-id` header of every attempt of this delivery.' }),
    webhookId: Type.String(),
    eventId: Type.String(),
    eventType: Type.String(),
    ...attemptOutcomeProperties,
  },
  { title: 'Delivery', examples: [deliveryExample] },
);

export const RecoverBody = Strict(
  {
    since: Type.String({
      format: 'date-time',
      description: 'ISO time, at most 30 days back: failed deliveries created since then are queued again.',
      examples: ['2026-11-20T00:00:00.000Z'],
    }),
  },
  { examples: [{ since: '2026-11-20T00:00:00.000Z' }] },
);

export const Recovered = Type.Object(
  { requeued: Type.Integer({ minimum: 0, description: 'How many failed deliveries were queued again.' }) },
  { examples: [{ requeued: 42 }] },
);
