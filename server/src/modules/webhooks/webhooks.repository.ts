import type { Insertable } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { insertInChunks } from '../../db/dialect/bulk.js';
import type { DeliveryRow, WebhookDeliveriesTable, WebhookRow } from './webhooks.table.js';

export async function insertWebhook(db: DbOrTx, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export const listWebhooks = (db: DbOrTx, projectId: string): Promise<WebhookRow[]> =>
  db.selectFrom('webhooks').selectAll().where('projectId', '=', projectId).orderBy('id').execute();

export const findWebhook = (db: DbOrTx, projectId: string, id: string): Promise<WebhookRow | undefined> =>
  db
    .selectFrom('webhooks')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();

export const webhooksByIds = (db: DbOrTx, ids: string[]): Promise<WebhookRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('webhooks').selectAll().where('id', 'in', ids).execute();

/** The active webhooks of several projects: the dispatch step's fan-out targets. */
export const activeWebhooksOf = (db: DbOrTx, projectIds: string[]): Promise<WebhookRow[]> =>
  db
    .selectFrom('webhooks')
    .selectAll()
    .where('projectId', 'in', projectIds)
    .where('active', '=', 1)
    .orderBy('id')
    .execute();

export async function updateWebhook(
  db: DbOrTx,
  projectId: string,
  id: string,
  set: Partial<Pick<WebhookRow, 'url' | 'events' | 'description' | 'active' | 'secret'>> & {
    updatedAt: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set(set)
    .where('projectId', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteWebhook(db: DbOrTx, projectId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('projectId', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Signing secrets not sealed with key `keyId` (in clear, or under an older key): the start-up sweep's work. */
export const secretsNotSealedWith = (db: DbOrTx, keyId: string) =>
  db.selectFrom('webhooks').select(['id', 'secret']).where('secret', 'not like', `enc1:${keyId}:%`).execute();

/** Compare-and-set: writes `to` only while the row still holds `from`. */
export async function replaceSecret(db: DbOrTx, id: string, from: string, to: string): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ secret: to })
    .where('id', '=', id)
    .where('secret', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertDeliveries(
  db: DbOrTx,
  rows: Insertable<WebhookDeliveriesTable>[],
): Promise<void> {
  await insertInChunks(db, 'webhookDeliveries', rows);
}

/** One page of a webhook's deliveries, newest first (the extra row tells whether more remain). */
export const listDeliveries = (
  db: DbOrTx,
  projectId: string,
  webhookId: string,
  after: string | undefined,
  limit: number,
): Promise<DeliveryRow[]> =>
  db
    .selectFrom('webhookDeliveries')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('webhookId', '=', webhookId)
    .$if(after !== undefined, (q) => q.where('id', '<', after!))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();

export const findDelivery = (
  db: DbOrTx,
  projectId: string,
  webhookId: string,
  id: string,
): Promise<DeliveryRow | undefined> =>
  db
    .selectFrom('webhookDeliveries')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('webhookId', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();

/** Re-queues a delivery for an immediate attempt; a lease in force (attempt in flight) is kept. */
export async function requeueDelivery(db: DbOrTx, id: string, now: string): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set({ status: 'pending', nextAttemptAt: now, updatedAt: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Recovery after a receiver outage: every `failed` delivery of one webhook created since `since`
 * becomes due now, in one statement. Failed rows hold no lease, so none is in flight.
 */
export async function requeueFailedSince(
  db: DbOrTx,
  projectId: string,
  webhookId: string,
  since: string,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('webhookDeliveries')
    .set({ status: 'pending', nextAttemptAt: now, updatedAt: now })
    .where('projectId', '=', projectId)
    .where('webhookId', '=', webhookId)
    .where('status', '=', 'failed')
    .where('createdAt', '>=', since)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deactivateWebhook(db: DbOrTx, id: string, now: string): Promise<void> {
  await db.updateTable('webhooks').set({ active: 0, updatedAt: now }).where('id', '=', id).execute();
}
