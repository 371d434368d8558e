import type { Db } from '../../db/database.js';
import { fromConstraint } from '../../db/dialect/constraints.js';
import { lockRow } from '../../db/dialect/index.js';
import { conflict, notFound } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { hashPassword, normalizeEmail } from '../../shared/passwords.js';
import { isoNow } from '../../shared/time.js';
import * as repo from './users.repository.js';
import type { Role } from './users.table.js';

export type User = repo.MemberRow;

export interface CreateUserInput {
  email: string;
  name?: string;
  role: Role;
  password: string;
}

export function createUsersService(db: Db) {
  /** The last admin of a project cannot be demoted or removed: someone must be able to manage it. */
  async function assertNotLastAdmin(trx: Db, projectId: string, member: User): Promise<void> {
    if (member.role === 'admin' && (await repo.countAdmins(trx, projectId)) <= 1) {
      throw conflict('A project needs at least one admin; promote another member first.');
    }
  }

  return {
    list: (projectId: string): Promise<User[]> => repo.listMembers(db, projectId),
    roleOf: (accountId: string, projectId: string) => repo.findRole(db, accountId, projectId),
    projectIdsOf: (accountId: string) => repo.projectIdsOfAccount(db, accountId),

    async create(projectId: string, input: CreateUserInput): Promise<User> {
      const email = normalizeEmail(input.email);
      const existing = await repo.findAccountByEmail(db, email);
      // Hash outside the transaction: it is the slow part and needs no lock.
      const passwordHash = existing ? null : await hashPassword(input.password);
      try {
        return await db.transaction().execute(async (trx) => {
          const now = isoNow();
          let accountId = existing?.id;
          if (!accountId) {
            accountId = newId('usr');
            await repo.insertAccount(trx, {
              id: accountId,
              email,
              name: input.name ?? '',
              passwordHash: passwordHash!,
              now,
            });
          }
          if (await repo.findRole(trx, accountId, projectId))
            throw conflict(`${email} is already a member of this project.`);
          await repo.insertMembership(trx, { projectId, accountId, role: input.role, now });
          return (await repo.findMember(trx, projectId, accountId))!;
        });
      } catch (err) {
        // Two concurrent invitations of the same new email: the loser sees the unique index.
        throw fromConstraint(err, { unique: `${email} is already a member of this project.` });
      }
    },

    update(projectId: string, userId: string, patch: { name?: string; role?: Role }): Promise<User> {
      return db.transaction().execute(async (trx) => {
        await lockRow(trx, 'projects', projectId);
        const member = await repo.findMember(trx, projectId, userId);
        if (!member) throw notFound('User');
        if (patch.role && patch.role !== member.role) {
          if (patch.role !== 'admin') await assertNotLastAdmin(trx, projectId, member);
          await repo.setRole(trx, projectId, userId, patch.role);
        }
        if (patch.name !== undefined) await repo.updateAccountName(trx, userId, patch.name, isoNow());
        return (await repo.findMember(trx, projectId, userId))!;
      });
    },

    remove(projectId: string, userId: string): Promise<void> {
      return db.transaction().execute(async (trx) => {
        await lockRow(trx, 'projects', projectId);
        const member = await repo.findMember(trx, projectId, userId);
        if (!member) throw notFound('User');
        await assertNotLastAdmin(trx, projectId, member);
        await repo.deleteMembership(trx, projectId, userId);
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
