import type { Insertable } from 'kysely';
import type { Tx } from '../../db/database.js';
import { type AttemptResult, failedAttempt, freshAttempt, isGone } from '../../jobs/attempts.js';
import type { AttemptJob } from '../../jobs/types.js';
import { type EventConsumer, isInternalEvent } from '../../outbox/index.js';
import type { HookClient } from '../../shared/hook-http.js';
import { newId } from '../../shared/ids.js';
import { type SecretBox, SecretBoxError } from '../../shared/secret-box.js';
import { isoAt } from '../../shared/time.js';
import { signatureHeaders } from '../../shared/webhook-signing.js';
import * as repo from './webhooks.repository.js';
import type { DeliveryRow, WebhookDeliveriesTable, WebhookRow } from './webhooks.table.js';

export const subscribes = (webhook: Pick<WebhookRow, 'events'>, type: string): boolean => {
  if (isInternalEvent(type)) return false;
  const events = JSON.parse(webhook.events) as string[];
  return events.includes('*') || events.includes(type);
};

/** A new pending delivery of `type` to `webhook`, its body fixed now so retries send the same bytes. */
export function newDelivery(
  webhook: WebhookRow,
  event: { id: string; type: string; createdAt: string; data: unknown },
  now: string,
): Insertable<WebhookDeliveriesTable> {
  return {
    id: newId('dlv'),
    projectId: webhook.projectId,
    webhookId: webhook.id,
    eventId: event.id,
    eventType: event.type,
    payload: JSON.stringify({ type: event.type, timestamp: event.createdAt, data: event.data }),
    ...freshAttempt(now),
  };
}

/**
 * One attempt of one delivery: signed with the webhook's current secret (so a rotation applies to
 * the next retry), `webhook-id` = the delivery id (the same on every retry and redelivery, for the
 * receiver's de-duplication), a fresh timestamp per attempt (receivers reject stale ones).
 */
export async function sendDelivery(
  client: HookClient,
  secrets: SecretBox,
  webhook: WebhookRow,
  delivery: DeliveryRow,
): Promise<AttemptResult> {
  let secret: string;
  try {
    secret = secrets.open(webhook.secret);
  } catch (err) {
    if (err instanceof SecretBoxError)
      return failedAttempt(`signing secret cannot be decrypted: ${err.message}`);
    throw err;
  }
  return client.post({
    url: webhook.url,
    headers: signatureHeaders(secret, delivery.id, delivery.payload),
    body: delivery.payload,
  });
}

/**
 * Whether `webhook` existed when `event` happened (issue 44): an event still pending when a webhook
 * is created (the worker was down, or behind) is not the new webhook's, which would otherwise receive
 * something from before it existed. Both times are ISO strings of one format, so they compare as text.
 */
const existedAt = (webhook: Pick<WebhookRow, 'createdAt'>, event: { createdAt: string }) =>
  webhook.createdAt <= event.createdAt;

/**
 * Outbox consumer: one delivery per event and matching active webhook of its project that existed
 * when the event happened (decided here, where deliveries are fanned out: the only place that sees
 * both the event and the webhooks).
 */
export const deliveriesFromEvents: EventConsumer = async (trx, events, { now }) => {
  const projectIds = [...new Set(events.map((e) => e.projectId))];
  const webhooks = await repo.activeWebhooksOf(trx, projectIds);
  const deliveries: Insertable<WebhookDeliveriesTable>[] = [];
  for (const event of events) {
    for (const webhook of webhooks) {
      if (
        webhook.projectId === event.projectId &&
        existedAt(webhook, event) &&
        subscribes(webhook, event.type)
      ) {
        deliveries.push(newDelivery(webhook, event, now));
      }
    }
  }
  await repo.insertDeliveries(trx, deliveries);
};

/** After a delivery's outcome is recorded (worker or test ping): a 410 Gone deactivates the webhook. */
export async function afterDelivery(trx: Tx, webhookId: string, result: AttemptResult): Promise<void> {
  if (isGone(result)) await repo.deactivateWebhook(trx, webhookId, isoAt(Date.now()));
}

export const deliverWebhooks: AttemptJob<DeliveryRow, Map<string, WebhookRow>> = {
  name: 'deliver-webhooks',
  table: 'webhookDeliveries',
  /** The batch's webhooks as they are now (a rotation or deactivation applies to this attempt). */
  async prepare({ db }, deliveries) {
    const rows = await repo.webhooksByIds(db, [...new Set(deliveries.map((d) => d.webhookId))]);
    return new Map(rows.map((w) => [w.id, w]));
  },
  async attempt({ client, secrets }, delivery, webhooks) {
    const webhook = webhooks.get(delivery.webhookId);
    // Deactivated after the event was dispatched: inactive webhooks receive nothing.
    if (!webhook?.active) return failedAttempt('webhook is inactive', { final: true });
    return sendDelivery(client, secrets, webhook, delivery);
  },
  onRecorded: (trx, delivery, result) => afterDelivery(trx, delivery.webhookId, result),
};
