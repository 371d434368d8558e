import type { Tx } from '../../db/database.js';
import { newId } from '../../shared/ids.js';
import { isoNow } from '../../shared/time.js';
import type { EventType } from './event-types.js';

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
    .values({
      id,
      projectId,
      type,
      data: JSON.stringify({ projectId, ...data }),
      createdAt: isoNow(),
      dispatchedAt: null,
    })
    .execute();
  return id;
}
