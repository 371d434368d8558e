import type { Selectable } from 'kysely';

/** A global account: one email, one password, member of any number of projects. */
export interface AccountsTable {
  id: string;
  email: string;
  name: string;
  /** argon2id; '' for an account created without a password (it cannot sign in until it sets one). */
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
}

export type Role = 'admin' | 'editor';

export interface MembershipsTable {
  projectId: string;
  accountId: string;
  role: Role;
  createdAt: string;
}

export type AccountRow = Selectable<AccountsTable>;

/**
 * A pending invitation of an existing account (contract §23; migration 0022): it grants nothing until
 * the account accepts it with the token, which turns it into a membership. Only the token's SHA-256 is
 * stored. Kept apart from `memberships` so that no access query can take it for one.
 */
export interface InvitationsTable {
  projectId: string;
  accountId: string;
  role: Role;
  tokenHash: string;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

export type InvitationRow = Selectable<InvitationsTable>;
