import type { DbOrTx } from '../../db/database.js';
import type { InvitationRow, InvitationsTable } from './users.table.js';

/** A pending invitation as the members list shows it (the account's name is not shown: see docs). */
export interface InvitedRow {
  id: string;
  email: string;
  role: InvitationRow['role'];
  createdAt: string;
  expiresAt: string;
}

export const findInvitation = (
  db: DbOrTx,
  projectId: string,
  accountId: string,
): Promise<InvitationRow | undefined> =>
  db
    .selectFrom('invitations')
    .selectAll()
    .where('projectId', '=', projectId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();

export const findInvitationByToken = (db: DbOrTx, tokenHash: string): Promise<InvitationRow | undefined> =>
  db.selectFrom('invitations').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();

/**
 * Stores an invitation, replacing the account's pending one in the project if there is one (inviting
 * again issues a new token, with the new role and expiry, and voids the older token).
 */
export async function putInvitation(db: DbOrTx, row: InvitationsTable): Promise<void> {
  await deleteInvitation(db, row.projectId, row.accountId);
  await db.insertInto('invitations').values(row).execute();
}

/** Deletes the account's invitation to the project; 1 when there was one. */
export async function deleteInvitation(db: DbOrTx, projectId: string, accountId: string): Promise<number> {
  const result = await db
    .deleteFrom('invitations')
    .where('projectId', '=', projectId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the invitation a token names; 1 when this call removed it (of two accepts racing, one does). */
export async function deleteInvitationByToken(db: DbOrTx, tokenHash: string): Promise<number> {
  const result = await db.deleteFrom('invitations').where('tokenHash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const listInvitations = (db: DbOrTx, projectId: string): Promise<InvitedRow[]> =>
  db
    .selectFrom('invitations')
    .innerJoin('accounts', 'accounts.id', 'invitations.accountId')
    .select([
      'accounts.id',
      'accounts.email',
      'invitations.role',
      'invitations.createdAt',
      'invitations.expiresAt',
    ])
    .where('invitations.projectId', '=', projectId)
    .execute();
