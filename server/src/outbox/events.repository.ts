import type { DbOrTx, Tx } from '../db/database.js';
import { skipLocked } from '../db/dialect/claim.js';
import { type SideWrite, sideWrite } from '../db/dialect/together.js';
import { byCodeUnits } from '../shared/canonical.js';
import { newId } from '../shared/ids.js';
import { isoNow } from '../shared/time.js';
import type { EventType } from './event-types.js';
import type { EventRow } from './events.table.js';

/**
 * Writes an event into the outbox. Takes a Transaction on purpose: an event must commit or roll
 * back together with the change it announces. Returns the event id.
 */
export async function enqueueEvent(
  trx: Tx,
  projectId: string,
  type: EventType,
  data: Record<string, unknown>,
): Promise<string> {
  const id = newId('evt');
  await trx
    .insertInto('events')
    .values(eventRow(projectId, type, data, id))
    .execute();
  return id;
}

const eventRow = (projectId: string, type: EventType, data: Record<string, unknown>, id: string) => ({
  id,
  projectId,
  type,
  data: JSON.stringify({ projectId, ...data }),
  createdAt: isoNow(),
  dispatchedAt: null,
});

/** enqueueEvent's row, not yet written: for a writer that folds it into its own statement (db/dialect/together.ts). */
export const eventWrite = (
  projectId: string,
  type: EventType,
  data: Record<string, unknown>,
  id = newId('evt'),
): SideWrite => sideWrite('events', [eventRow(projectId, type, data, id)]);

/**
 * The outbox consumer's claim: stamps up to `limit` pending events dispatched and returns them, in
 * one statement (see src/db/dialect/claim.ts for why it is an UPDATE … RETURNING). Runs inside the
 * dispatch transaction, so the stamp commits together with the deliveries made from the events.
 */
export async function claimPendingEvents(trx: Tx, limit: number, now: string): Promise<EventRow[]> {
  const rows = await trx
    .updateTable('events')
    .set({ dispatchedAt: now })
    .where('id', 'in', (eb) =>
      skipLocked(
        trx,
        eb.selectFrom('events').select('id').where('dispatchedAt', 'is', null).orderBy('id').limit(limit),
      ),
    )
    .returningAll()
    .execute();
  return rows.sort((a, b) => byCodeUnits(a.id, b.id));
}

/**
 * The outbox backlog, for /metrics: how many events wait for the dispatcher and when the oldest
 * was written. One statement of two subqueries, both on events_pending_idx (dispatched_at, id):
 * a count of its null range (small while the worker keeps up) and the first row of that range.
 */
export async function outboxBacklog(db: DbOrTx): Promise<{ pending: number; oldestAt: string | null }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('events')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('dispatchedAt', 'is', null)
        .as('pending'),
      eb
        .selectFrom('events')
        .select('createdAt')
        .where('dispatchedAt', 'is', null)
        .orderBy('dispatchedAt')
        .orderBy('id')
        .limit(1)
        .as('oldestAt'),
    ])
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending ?? 0), oldestAt: row.oldestAt ?? null };
}
