import type { Db } from '../../db/database.js';
import { attemptOutcome } from '../../jobs/attempts.js';
import { recordOutcome } from '../../jobs/queue.js';
import { EVENT_TYPES, type Outbox } from '../../outbox/index.js';
import { decodeCursor } from '../../shared/cursor.js';
import { conflict, notFound, validationFailed } from '../../shared/errors.js';
import type { HookClient } from '../../shared/hook-http.js';
import { hookUrlProblem } from '../../shared/hook-targets.js';
import { newId } from '../../shared/ids.js';
import type { UserActor } from '../../shared/principals.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { isoAt, isoNow } from '../../shared/time.js';
import { newWebhookSecret } from '../../shared/webhook-signing.js';
import { afterDelivery, newDelivery, sendDelivery } from './webhooks.jobs.js';
import * as repo from './webhooks.repository.js';
import type { DeliveryRow, WebhookRow } from './webhooks.table.js';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  description: row.description,
  active: row.active === 1,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const toDelivery = (row: DeliveryRow) => ({
  id: row.id,
  webhookId: row.webhookId,
  eventId: row.eventId,
  eventType: row.eventType,
  ...attemptOutcome(row),
});

/** How far back `recover` reaches (contract §12): the deliveries log keeps about as much. */
export const RECOVER_MAX_DAYS = 30;
/** Clock skew tolerated on `since`, so "exactly 30 days ago" computed by a client is accepted. */
const RECOVER_SKEW_MS = 60_000;

export interface WebhooksDeps {
  client: HookClient;
  allowPrivateTargets: boolean;
  /** How long a synchronous test ping holds its lease (so the worker leaves it alone). */
  leaseMs: number;
  /** Seals signing secrets at rest (src/shared/secret-box.ts). */
  secrets: SecretBox;
}

/** A webhook as a summary names it: its host only, as a URL's path or query may carry a token. */
function describe(row: { url: string }): string {
  try {
    return `the webhook to ${new URL(row.url).host}`;
  } catch {
    return 'a webhook';
  }
}

export function createWebhooksService(db: Db, outbox: Outbox, deps: WebhooksDeps) {
  const { recordActivity } = outbox;
  async function checkUrl(url: string): Promise<void> {
    const problem = await hookUrlProblem(url, deps.allowPrivateTargets);
    if (problem) {
      throw validationFailed('The webhook URL is not an allowed target.', [
        { path: 'body.url', message: problem },
      ]);
    }
  }

  async function existing(projectId: string, id: string): Promise<WebhookRow> {
    const row = await repo.findWebhook(db, projectId, id);
    if (!row) throw notFound('Webhook');
    return row;
  }

  return {
    async list(projectId: string) {
      const rows = await repo.listWebhooks(db, projectId);
      return { webhooks: rows.map(toWebhook), eventTypes: EVENT_TYPES.map((e) => ({ ...e })) };
    },

    async create(
      projectId: string,
      input: { url: string; events: string[]; description?: string },
      actor: UserActor,
    ) {
      await checkUrl(input.url);
      const now = isoNow();
      const secret = newWebhookSecret();
      const row: WebhookRow = {
        id: newId('whk'),
        projectId,
        url: input.url,
        events: JSON.stringify(input.events),
        description: input.description ?? '',
        active: 1,
        secret: deps.secrets.seal(secret),
        createdAt: now,
        updatedAt: now,
      };
      await db.transaction().execute(async (trx) => {
        await repo.insertWebhook(trx, row);
        await recordActivity(trx, projectId, actor, {
          action: 'webhook.created',
          target: { type: 'webhook', id: row.id },
          summary: `${actor.email} created ${describe(row)} (${input.events.join(', ')}).`,
        });
      });
      return { ...toWebhook(row), secret };
    },

    async update(
      projectId: string,
      id: string,
      patch: { url?: string; events?: string[]; description?: string; active?: boolean },
      actor: UserActor,
    ): Promise<Webhook> {
      if (patch.url !== undefined) await checkUrl(patch.url);
      return db.transaction().execute(async (trx) => {
        const updated = await repo.updateWebhook(trx, projectId, id, {
          updatedAt: isoNow(),
          ...(patch.url !== undefined && { url: patch.url }),
          ...(patch.events !== undefined && { events: JSON.stringify(patch.events) }),
          ...(patch.description !== undefined && { description: patch.description }),
          ...(patch.active !== undefined && { active: patch.active ? 1 : 0 }),
        });
        if (!updated) throw notFound('Webhook');
        const row = (await repo.findWebhook(trx, projectId, id))!;
        const fields = Object.keys(patch).filter((k) => patch[k as keyof typeof patch] !== undefined);
        await recordActivity(trx, projectId, actor, {
          action: 'webhook.updated',
          target: { type: 'webhook', id },
          summary: `${actor.email} changed ${describe(row)}: ${fields.join(', ') || 'nothing'}.`,
        });
        return toWebhook(row);
      });
    },

    remove(projectId: string, id: string, actor: UserActor): Promise<void> {
      return db.transaction().execute(async (trx) => {
        const row = await repo.findWebhook(trx, projectId, id);
        if (!row || !(await repo.deleteWebhook(trx, projectId, id))) throw notFound('Webhook');
        await recordActivity(trx, projectId, actor, {
          action: 'webhook.deleted',
          target: { type: 'webhook', id },
          summary: `${actor.email} deleted ${describe(row)}.`,
        });
      });
    },

    /** A new secret; every attempt from now on (retries included) is signed with it only. */
    rotateSecret(projectId: string, id: string, actor: UserActor): Promise<{ secret: string }> {
      const secret = newWebhookSecret();
      const sealed = deps.secrets.seal(secret);
      return db.transaction().execute(async (trx) => {
        if (!(await repo.updateWebhook(trx, projectId, id, { secret: sealed, updatedAt: isoNow() })))
          throw notFound('Webhook');
        const row = (await repo.findWebhook(trx, projectId, id))!;
        await recordActivity(trx, projectId, actor, {
          action: 'webhook.secret_rotated',
          target: { type: 'webhook', id },
          summary: `${actor.email} rotated the signing secret of ${describe(row)}.`,
        });
        return { secret };
      });
    },

    async deliveries(projectId: string, id: string, query: { limit: number; cursor?: string }) {
      await existing(projectId, id);
      const rows = await repo.listDeliveries(db, projectId, id, decodeCursor(query.cursor), query.limit);
      return rows.map(toDelivery);
    },

    /**
     * Sends a `ping` now, inside the request, and returns the recorded outcome. The row is created
     * already leased so the worker never sends it too; a ping is not retried (redeliver it).
     */
    async test(projectId: string, id: string) {
      const webhook = await existing(projectId, id);
      const nowMs = Date.now();
      const now = isoAt(nowMs);
      const lease = isoAt(nowMs + deps.leaseMs);
      const event = { id: newId('evt'), type: 'ping', createdAt: now, data: { projectId, webhookId: id } };
      const delivery = { ...newDelivery(webhook, event, now), lockedUntil: lease } as DeliveryRow;
      await repo.insertDeliveries(db, [delivery]);
      const result = await sendDelivery(deps.client, deps.secrets, webhook, delivery);
      await db.transaction().execute(async (trx) => {
        await recordOutcome(trx, 'webhookDeliveries', delivery, lease, result, []);
        await afterDelivery(trx, webhook.id, result);
      });
      return toDelivery((await repo.findDelivery(db, projectId, id, delivery.id))!);
    },

    /** Queues an immediate new attempt of the same delivery (same id, same webhook-id). */
    async redeliver(projectId: string, id: string, deliveryId: string) {
      await existing(projectId, id);
      const delivery = await repo.findDelivery(db, projectId, id, deliveryId);
      if (!delivery) throw notFound('Delivery');
      await repo.requeueDelivery(db, delivery.id, isoNow());
      return toDelivery((await repo.findDelivery(db, projectId, id, deliveryId))!);
    },

    /**
     * After a receiver outage: queues an immediate new attempt of every `failed` delivery of this
     * webhook created since `since` (same ids, attemptCount goes on), as redeliver does for one.
     * An inactive webhook would fail them all again at once, so it is a 409 instead.
     */
    async recover(projectId: string, id: string, since: string): Promise<{ requeued: number }> {
      const nowMs = Date.now();
      const sinceMs = Date.parse(since);
      if (sinceMs < nowMs - RECOVER_MAX_DAYS * 86_400_000 - RECOVER_SKEW_MS) {
        throw validationFailed(`since reaches back at most ${RECOVER_MAX_DAYS} days.`, [
          { path: 'body.since', message: `must be within the last ${RECOVER_MAX_DAYS} days` },
        ]);
      }
      const webhook = await existing(projectId, id);
      if (webhook.active !== 1)
        throw conflict('The webhook is inactive; reactivate it before recovering its deliveries.');
      const requeued = await repo.requeueFailedSince(db, projectId, id, isoAt(sinceMs), isoAt(nowMs));
      return { requeued };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
