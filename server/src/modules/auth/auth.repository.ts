import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { SessionPrincipal } from '../../shared/principals.js';
import { accountsView } from '../users/index.js';
import type { SetPasswordTokensTable } from './auth.table.js';

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

/** Ends every session of the account but `keepTokenHash` (when given); returns how many ended. */
export async function deleteSessionsOfAccount(
  db: DbOrTx,
  accountId: string,
  keepTokenHash?: string,
): Promise<number> {
  let query = db.deleteFrom('sessions').where('accountId', '=', accountId);
  if (keepTokenHash !== undefined) query = query.where('tokenHash', '<>', keepTokenHash);
  const result = await query.executeTakeFirst();
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

/** Stores a set-password token (its hash) after deleting the account's older one: the newest wins. */
export async function replaceSetPasswordToken(db: DbOrTx, row: SetPasswordTokensTable): Promise<void> {
  await db.deleteFrom('setPasswordTokens').where('accountId', '=', row.accountId).execute();
  await db.insertInto('setPasswordTokens').values(row).execute();
}

export const findSetPasswordToken = (
  db: DbOrTx,
  tokenHash: string,
): Promise<SetPasswordTokensTable | undefined> =>
  db.selectFrom('setPasswordTokens').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();

/** Deletes the token; 1 when this call removed it (of two uses racing, only one does). */
export async function deleteSetPasswordToken(db: DbOrTx, tokenHash: string): Promise<number> {
  const result = await db
    .deleteFrom('setPasswordTokens')
    .where('tokenHash', '=', tokenHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
