import type { Insertable } from 'kysely';
import type { DbOrTx, Tx } from '../../db/database.js';
import { insertInChunks } from '../../db/dialect/bulk.js';
import { forUpdate, skipLocked } from '../../db/dialect/claim.js';
import { isoAt } from '../../shared/time.js';
import type { DeployRow, DeploysTable, DeployTriggerRow } from './deploys.table.js';

/** The max wait of a burst, as a multiple of the debounce (contract §4). */
export const MAX_WAIT_FACTOR = 5;

/**
 * Folds publishes into each project's pending deploy trigger (inside the dispatch transaction).
 * Debounce: the trigger fires at min(last publish + debounce, first publish + 5 × debounce), so a
 * burst makes one call and a continuous stream still fires. Times are the events' own, so a worker
 * that was down does not stretch the wait. Projects are locked in id order: two processes folding
 * into the same triggers cannot deadlock.
 */
export async function recordPublishes(
  trx: Tx,
  publishes: { projectId: string; type: string; at: string; locales: readonly string[] }[],
  debounceMs: number,
): Promise<void> {
  const byProject = new Map<
    string,
    { types: Set<string>; locales: Set<string>; first: string; last: string }
  >();
  for (const p of publishes) {
    const entry = byProject.get(p.projectId);
    if (!entry)
      byProject.set(p.projectId, {
        types: new Set([p.type]),
        locales: new Set(p.locales),
        first: p.at,
        last: p.at,
      });
    else {
      entry.types.add(p.type);
      for (const l of p.locales) entry.locales.add(l);
      if (p.at < entry.first) entry.first = p.at;
      if (p.at > entry.last) entry.last = p.at;
    }
  }
  for (const projectId of [...byProject.keys()].sort()) {
    const burst = byProject.get(projectId)!;
    // Insert-if-absent, then lock the row. Between the two, another worker may fire the trigger
    // (deleting the row it found when the insert did nothing): then the insert goes through on the
    // next try. Two tries always suffice; the third guards against a bug, not a race.
    let row: DeployTriggerRow | undefined;
    for (let tries = 0; !row; tries++) {
      if (tries === 3) throw new Error(`deploy trigger of ${projectId} vanished three times`);
      await trx
        .insertInto('deployTriggers')
        .values({ projectId, reasons: '[]', firstAt: burst.first, lastAt: burst.last, fireAt: burst.last })
        .onConflict((oc) => oc.column('projectId').doNothing())
        .execute();
      row = (await forUpdate(
        trx,
        trx.selectFrom('deployTriggers').selectAll().where('projectId', '=', projectId),
      ).executeTakeFirst()) as DeployTriggerRow | undefined;
    }
    const first = row.firstAt < burst.first ? row.firstAt : burst.first;
    const last = row.lastAt > burst.last ? row.lastAt : burst.last;
    const fireAt = Math.min(Date.parse(last) + debounceMs, Date.parse(first) + MAX_WAIT_FACTOR * debounceMs);
    const reasons = [...new Set([...(JSON.parse(row.reasons) as string[]), ...burst.types])].sort();
    const locales = [...new Set([...(JSON.parse(row.locales ?? '[]') as string[]), ...burst.locales])].sort();
    await trx
      .updateTable('deployTriggers')
      .set({
        firstAt: first,
        lastAt: last,
        fireAt: isoAt(fireAt),
        reasons: JSON.stringify(reasons),
        locales: locales.length > 0 ? JSON.stringify(locales) : null,
      })
      .where('projectId', '=', projectId)
      .execute();
  }
}

/**
 * Takes due triggers off the table (one statement, skipping rows another process holds), so each
 * trigger fires in exactly one process; the caller creates the deploy calls in the same transaction.
 */
export async function takeDueTriggers(trx: Tx, limit: number, now: string): Promise<DeployTriggerRow[]> {
  return trx
    .deleteFrom('deployTriggers')
    .where('projectId', 'in', (eb) =>
      skipLocked(
        trx,
        eb
          .selectFrom('deployTriggers')
          .select('projectId')
          .where('fireAt', '<=', now)
          .orderBy('fireAt')
          .limit(limit),
      ),
    )
    .returningAll()
    .execute();
}

export async function insertDeploys(db: DbOrTx, rows: Insertable<DeploysTable>[]): Promise<void> {
  await insertInChunks(db, 'deploys', rows);
}

export const listDeploys = (db: DbOrTx, projectId: string, after: string | undefined, limit: number) =>
  db
    .selectFrom('deploys')
    .selectAll()
    .where('projectId', '=', projectId)
    .$if(after !== undefined, (q) => q.where('id', '<', after!))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute() as Promise<DeployRow[]>;
