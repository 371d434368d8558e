/**
 * Accounts, memberships and invitations: owns `accounts`, `memberships` and `invitations`. Lends the
 * subqueries other modules join in their own statements (membershipsView, accountsView) and the account
 * writes of a sign-up. `memberships` holds active members only: an invitation grants nothing.
 */

export { invitationsRoutes } from './invitations.routes.js';
export {
  type AttemptLimiter,
  createInvitationsService,
  type InvitationsService,
} from './invitations.service.js';
export {
  accountsView,
  administersEveryProjectOf,
  adminProjectIds,
  findAccountByEmail,
  findAccountById,
  insertAccount,
  insertMembership,
  membershipsView,
  projectIdsOfAccount,
  setAccountPassword,
} from './users.repository.js';
export { usersRoutes } from './users.routes.js';
export { createUsersService, mayPublish, NOT_EVERY_PROJECT, type UsersService } from './users.service.js';
export type { Role } from './users.table.js';
