import type { Selectable } from 'kysely';
import type { AttemptColumns } from '../../jobs/attempts.js';

export interface WebhooksTable {
  id: string;
  projectId: string;
  url: string;
  /** JSON array of event types, or ["*"]. */
  events: string;
  description: string;
  active: number;
  /**
   * The `whsec_…` signing secret, sealed (AES-256-GCM, src/shared/secret-box.ts): not hashed,
   * because every attempt signs with it — an HMAC key cannot be a hash. Never returned after
   * create/rotate and never logged.
   */
  secret: string;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDeliveriesTable extends AttemptColumns {
  webhookId: string;
  /** The message id (`webhook-id` header): the outbox event's id, or a fresh one for a ping. */
  eventId: string;
  eventType: string;
  /** The exact JSON body, fixed at dispatch so every retry sends (and signs) the same bytes. */
  payload: string;
}

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
