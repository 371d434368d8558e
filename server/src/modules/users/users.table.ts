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
