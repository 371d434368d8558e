import type { Db, DbOrTx } from '../../db/database.js';
import { fromConstraint } from '../../db/dialect/constraints.js';
import { lockRow } from '../../db/dialect/index.js';
import type { Outbox } from '../../outbox/index.js';
import { conflict, notFound } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { hashPassword, normalizeEmail } from '../../shared/passwords.js';
import type { UserActor } from '../../shared/principals.js';
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

/**
 * Whether the account may publish in the project right now: it is a member with the editor or the
 * admin role (every role there is; what the routes' `editor` access rule asks of a session). Handed to
 * scheduled publishing (jobs/handlers.ts), which runs a schedule only while its creator still may.
 */
export async function mayPublish(db: DbOrTx, accountId: string, projectId: string): Promise<boolean> {
  const role = await repo.findRole(db, accountId, projectId);
  return role === 'editor' || role === 'admin';
}

export function createUsersService(db: Db, outbox: Outbox) {
  const { recordActivity } = outbox;
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

    async create(projectId: string, input: CreateUserInput, actor: UserActor): Promise<User> {
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
          await recordActivity(trx, projectId, actor, {
            action: 'user.added',
            target: { type: 'user', id: accountId },
            summary: `${actor.email} added ${email} as ${input.role}.`,
          });
          return (await repo.findMember(trx, projectId, accountId))!;
        });
      } catch (err) {
        // Two concurrent invitations of the same new email: the loser sees the unique index.
        throw fromConstraint(err, { unique: `${email} is already a member of this project.` });
      }
    },

    update(
      projectId: string,
      userId: string,
      patch: { name?: string; role?: Role },
      actor: UserActor,
    ): Promise<User> {
      return db.transaction().execute(async (trx) => {
        await lockRow(trx, 'projects', projectId);
        const member = await repo.findMember(trx, projectId, userId);
        if (!member) throw notFound('User');
        const changes: string[] = [];
        if (patch.role && patch.role !== member.role) {
          if (patch.role !== 'admin') await assertNotLastAdmin(trx, projectId, member);
          await repo.setRole(trx, projectId, userId, patch.role);
          changes.push(`role from ${member.role} to ${patch.role}`);
        }
        if (patch.name !== undefined && patch.name !== member.name) {
          await repo.updateAccountName(trx, userId, patch.name, isoNow());
          changes.push('name');
        }
        if (changes.length > 0) {
          await recordActivity(trx, projectId, actor, {
            action: 'user.updated',
            target: { type: 'user', id: userId },
            summary: `${actor.email} changed ${member.email}'s ${changes.join(' and ')}.`,
          });
        }
        return (await repo.findMember(trx, projectId, userId))!;
      });
    },

    remove(projectId: string, userId: string, actor: UserActor): Promise<void> {
      return db.transaction().execute(async (trx) => {
        await lockRow(trx, 'projects', projectId);
        const member = await repo.findMember(trx, projectId, userId);
        if (!member) throw notFound('User');
        await assertNotLastAdmin(trx, projectId, member);
        await repo.deleteMembership(trx, projectId, userId);
        await recordActivity(trx, projectId, actor, {
          action: 'user.removed',
          target: { type: 'user', id: userId },
          summary: `${actor.email} removed ${member.email} (${member.role}) from the project.`,
        });
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
