import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { SessionPrincipal } from '../../shared/principals.js';
import { accountsView } from '../users/index.js';

export async function insertSession(
  db: DbOrTx,
  s: { tokenHash: string; accountId: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db.insertInto('sessions').values(s).execute();
}

export async function findLiveSession(
  db: DbOrTx,
  tokenHash: string,
  now: string,
): Promise<SessionPrincipal | null> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin(accountsView(db).as('accounts'), 'accounts.id', 'sessions.accountId')
    .select(['sessions.tokenHash', 'sessions.accountId', 'accounts.email'])
    .where('sessions.tokenHash', '=', tokenHash)
    .where('sessions.expiresAt', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

export async function deleteSession(db: DbOrTx, tokenHash: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('tokenHash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredSessions(db: DbOrTx, accountId: string, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('accountId', '=', accountId).where('expiresAt', '<=', now).execute();
}

/** Failures since `since` for a client address (and email, when given), with the oldest one's time. */
export async function failuresSince(
  db: DbOrTx,
  since: string,
  ip: string,
  email?: string,
): Promise<{ count: number; oldest: string | null }> {
  let query = db
    .selectFrom('loginFailures')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('createdAt').as('oldest')])
    .where('ip', '=', ip)
    .where('createdAt', '>', since);
  if (email !== undefined) query = query.where('email', '=', email);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest ?? null };
}

/**
 * Records an attempt only while both counts in the window are under their limits, in one
 * statement (the caller serialises it per address). True when it was recorded.
 */
export async function reserveAttempt(
  db: DbOrTx,
  f: { id: string; ip: string; email: string; createdAt: string },
  since: string,
  limits: { pair: number; address: number },
): Promise<boolean> {
  const result = await sql`
    insert into login_failures (id, ip, email, created_at)
    select ${f.id}, ${f.ip}, ${f.email}, ${f.createdAt}
    where (select count(*) from login_failures
           where ip = ${f.ip} and email = ${f.email} and created_at > ${since}) < ${limits.pair}
      and (select count(*) from login_failures
           where ip = ${f.ip} and created_at > ${since}) < ${limits.address}`.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

export async function clearFailures(db: DbOrTx, ip: string, email: string): Promise<void> {
  await db.deleteFrom('loginFailures').where('ip', '=', ip).where('email', '=', email).execute();
}

export async function pruneFailures(db: DbOrTx, before: string): Promise<void> {
  await db.deleteFrom('loginFailures').where('createdAt', '<=', before).execute();
}
