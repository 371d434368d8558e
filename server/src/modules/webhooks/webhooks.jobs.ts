import type { Insertable } from 'kysely';
import { type AttemptResult, freshAttempt, notSent } from '../../jobs/attempts.js';
import type { AttemptJob, SweepJob } from '../../jobs/types.js';
import type { HookClient } from '../../shared/hook-http.js';
import { newId } from '../../shared/ids.js';
import { type SecretBox, SecretBoxError } from '../../shared/secret-box.js';
import { isoAt } from '../../shared/time.js';
import { signatureHeaders } from '../../shared/webhook-signing.js';
import { recordPublishes } from '../deploys/deploys.repository.js';
import { DEPLOY_TRIGGERS, type EventType } from '../events/event-types.js';
import * as repo from './webhooks.repository.js';
import type { DeliveryRow, WebhookDeliveriesTable, WebhookRow } from './webhooks.table.js';

export const subscribes = (webhook: Pick<WebhookRow, 'events'>, type: string): boolean => {
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
    if (err instanceof SecretBoxError) return notSent(`signing secret cannot be decrypted: ${err.message}`);
    throw err;
  }
  return client.post({
    url: webhook.url,
    headers: signatureHeaders(secret, delivery.id, delivery.payload),
    body: delivery.payload,
  });
}

/**
 * Fan-out, in one transaction: claim pending outbox events, create one delivery per matching active
 * webhook, fold publishes into the projects' debounced deploy triggers, stamp the events dispatched.
 * A crash before commit leaves the events pending; after commit, everything they became is stored.
 */
export const dispatchEvents: SweepJob = {
  name: 'dispatch-events',
  everyMs: (config) => config.workerPollMs,
  async run({ db, config }, nowMs) {
    return db.transaction().execute(async (trx) => {
      const now = isoAt(nowMs);
      const events = await repo.claimPendingEvents(trx, config.workerBatchSize, now);
      if (events.length === 0) return 0;
      const projectIds = [...new Set(events.map((e) => e.projectId))];
      const webhooks = await repo.activeWebhooksOf(trx, projectIds);
      const deliveries: Insertable<WebhookDeliveriesTable>[] = [];
      for (const event of events) {
        const data = JSON.parse(event.data) as unknown;
        for (const webhook of webhooks) {
          if (webhook.projectId === event.projectId && subscribes(webhook, event.type)) {
            deliveries.push(newDelivery(webhook, { ...event, data }, now));
          }
        }
      }
      await repo.insertDeliveries(trx, deliveries);
      const publishes = events
        .filter((e) => DEPLOY_TRIGGERS.includes(e.type as EventType))
        .map((e) => ({ projectId: e.projectId, type: e.type, at: e.createdAt }));
      await recordPublishes(trx, publishes, config.deployDebounceMs);
      return events.length;
    });
  },
};

const gone = (result: AttemptResult) => result.responseCode === 410;

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
    if (!webhook?.active) {
      // Deactivated after the event was dispatched: inactive webhooks receive nothing.
      return {
        ok: false,
        final: true,
        responseCode: null,
        durationMs: 0,
        error: 'webhook is inactive',
        responseBody: null,
        retryAfterSeconds: null,
      };
    }
    return sendDelivery(client, secrets, webhook, delivery);
  },
  async onRecorded(trx, delivery, result) {
    // 410 Gone: the receiver says this endpoint is gone for good (Standard Webhooks): stop sending.
    if (gone(result)) await repo.deactivateWebhook(trx, delivery.webhookId, isoAt(Date.now()));
  },
};
