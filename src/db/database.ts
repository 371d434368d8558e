import type { Kysely, Transaction } from 'kysely';
import type { LoginFailuresTable, SessionsTable } from '../modules/auth/auth.table.js';
import type { EventsTable } from '../modules/events/events.table.js';
import type { DeployHooksTable, ProjectsTable } from '../modules/projects/projects.table.js';
import type { AccountsTable, MembershipsTable } from '../modules/users/users.table.js';

/**
 * Every table, assembled from the per-module table types. Column names are camelCase here and
 * snake_case in SQL (Kysely's CamelCasePlugin translates).
 */
export interface Database {
  projects: ProjectsTable;
  deployHooks: DeployHooksTable;
  accounts: AccountsTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  loginFailures: LoginFailuresTable;
  events: EventsTable;
}

/** What repositories take: the database or an open transaction. */
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type DbOrTx = Db | Tx;
