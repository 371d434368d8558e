/**
 * Accounts and memberships: owns `accounts` and `memberships`. Lends the subqueries other modules
 * join in their own statements (membershipsView, accountsView) and the account writes of a sign-up.
 */
export {
  accountsView,
  administersEveryProjectOf,
  adminProjectIds,
  findAccountByEmail,
  findAccountById,
  gainedMembershipSince,
  insertAccount,
  insertMembership,
  membershipsView,
  projectIdsOfAccount,
  setAccountPassword,
} from './users.repository.js';
export { usersRoutes } from './users.routes.js';
export { createUsersService, mayPublish, NOT_EVERY_PROJECT, type UsersService } from './users.service.js';
export type { Role } from './users.table.js';
