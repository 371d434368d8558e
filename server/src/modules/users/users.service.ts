import type { Db, DbOrTx, Tx } from '../../db/database.js';
import { type ChangeBus, type Changed, transactionWithChanges } from '../../db/dialect/change-bus.js';
import { fromConstraint } from '../../db/dialect/constraints.js';
import { lockRow } from '../../db/dialect/index.js';
import type { Outbox } from '../../outbox/index.js';
import { conflict, forbidden, notFound } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { hashPassword, normalizeEmail } from '../../shared/passwords.js';
import type { UserActor } from '../../shared/principals.js';
import { isoAt, isoNow } from '../../shared/time.js';
import * as invitations from './invitations.repository.js';
import { type InvitationLink, issueInvitation } from './invitations.service.js';
import * as repo from './users.repository.js';
import type { Role } from './users.table.js';

/** A member of the project (`active`), or an account invited and not yet accepted (`invited`). */
export type User =
  | (repo.MemberRow & { status: 'active' })
  | (repo.MemberRow & { status: 'invited'; invitationExpiresAt: string });

const active = (member: repo.MemberRow): User => ({ ...member, status: 'active' });

/**
 * A pending invitation as a member row. `name` is left empty: the account's name is its owner's, and
 * any admin can invite any email, so an invitation must not show a stranger what an account calls
 * itself (that it exists, the answer's shape already says: see docs/api.md).
 */
const invited = (row: invitations.InvitedRow): User => ({
  id: row.id,
  email: row.email,
  name: '',
  role: row.role,
  status: 'invited',
  createdAt: row.createdAt,
  invitationExpiresAt: row.expiresAt,
});

export interface CreateUserInput {
  email: string;
  name?: string;
  role: Role;
  /** Omitted: a new account is created without one and the answer carries a set-password link. */
  password?: string;
}

/** A set-password link, shown once (contract §15). */
export interface SetPasswordLink {
  setPasswordToken: string;
  setPasswordExpiresAt: string;
}

/**
 * What users needs of the auth module, which owns set-password tokens (handed over in app.ts; auth
 * reads accounts through this module, so this one must not import auth back).
 */
export interface SetPasswordLinks {
  /** Issues a link for the account in the caller's transaction; a newer link voids the older one. */
  issue(trx: Tx, accountId: string, issuerId: string, nowMs: number): Promise<SetPasswordLink>;
}

/** Contract §23: a session must not take over its own account without its current password. */
export const OWN_PASSWORD =
  'You cannot issue a set-password link for your own account: change your password with POST /v1/auth/password, which asks for the current one.';

/** PATCH of an invitation: its role is the invitation's, changed by inviting again. */
export const INVITED_NOT_MEMBER =
  'This account is invited, not a member yet: invite the email again to change the role (a new link replaces the old one), or cancel the invitation.';

/** The issuer's right over an account (contract §15), checked here at issue and by auth at use. */
export const NOT_EVERY_PROJECT =
  'Only an admin of every project the account belongs to can issue it a set-password link.';

/**
 * Whether the account may publish in the project right now: it is a member with the editor or the
 * admin role (every role there is; what the routes' `editor` access rule asks of a session). Handed to
 * scheduled publishing (jobs/handlers.ts), which runs a schedule only while its creator still may.
 */
export async function mayPublish(db: DbOrTx, accountId: string, projectId: string): Promise<boolean> {
  const role = await repo.findRole(db, accountId, projectId);
  return role === 'editor' || role === 'admin';
}

/** The activity record of an issued link: who issued it, for whom; never the token (contract §17). */
const linkIssued = (actor: UserActor, accountId: string, email: string) => ({
  action: 'user.password_reset_issued' as const,
  target: { type: 'user' as const, id: accountId },
  summary: `${actor.email} issued a set-password link for ${email}.`,
});

/**
 * `endPreviewTokens` (the preview module's) ends the preview tokens a member created in a project,
 * inside the transaction that removes them or changes their role (contract §16, §17: a token ends
 * when its creator's role changes, not only on a demotion); `changes` carries that to every instance.
 */
export function createUsersService(
  db: Db,
  outbox: Outbox,
  changes: ChangeBus,
  deps: SetPasswordLinks & {
    endPreviewTokens: (trx: Tx, changed: Changed, accountId: string, projectId: string) => Promise<number>;
  },
) {
  const { recordActivity } = outbox;
  /** The last admin of a project cannot be demoted or removed: someone must be able to manage it. */
  async function assertNotLastAdmin(trx: Db, projectId: string, member: repo.MemberRow): Promise<void> {
    if (member.role === 'admin' && (await repo.countAdmins(trx, projectId)) <= 1) {
      throw conflict('A project needs at least one admin; promote another member first.');
    }
  }

  /**
   * The pending invitation of an existing account (contract §23); inviting it again replaces the
   * pending one (new token, role and expiry). An active member is 409 as before.
   */
  async function invite(
    projectId: string,
    accountId: string,
    email: string,
    role: Role,
    actor: UserActor,
  ): Promise<User & InvitationLink> {
    try {
      return await db.transaction().execute(async (trx) => {
        if (await repo.findRole(trx, accountId, projectId))
          throw conflict(`${email} is already a member of this project.`);
        const nowMs = Date.now();
        const link = await issueInvitation(trx, { projectId, accountId, role, invitedBy: actor.id, nowMs });
        await recordActivity(trx, projectId, actor, {
          action: 'user.invited',
          target: { type: 'user', id: accountId },
          summary: `${actor.email} invited ${email} as ${role}.`,
        });
        const row = {
          id: accountId,
          email,
          role,
          createdAt: isoAt(nowMs),
          expiresAt: link.invitationExpiresAt,
        };
        return { ...invited(row), ...link } as User & InvitationLink;
      });
    } catch (err) {
      // Two concurrent invitations of the same account: the loser sees the primary key.
      throw fromConstraint(err, { unique: `${email} was just invited to this project by someone else.` });
    }
  }

  async function cancelInvitation(trx: Tx, projectId: string, accountId: string, actor: UserActor) {
    if ((await invitations.deleteInvitation(trx, projectId, accountId)) === 0) throw notFound('User');
    const account = await repo.findAccountById(trx, accountId);
    await recordActivity(trx, projectId, actor, {
      action: 'user.invitation_canceled',
      target: { type: 'user', id: accountId },
      summary: `${actor.email} canceled the invitation of ${account?.email ?? accountId}.`,
    });
  }

  return {
    /** Members first (as they joined), then pending invitations (oldest first). */
    async list(projectId: string): Promise<User[]> {
      const members = await repo.listMembers(db, projectId);
      const pending = await invitations.listInvitations(db, projectId);
      pending.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
      return [...members.map(active), ...pending.map(invited)];
    },
    roleOf: (accountId: string, projectId: string) => repo.findRole(db, accountId, projectId),
    projectIdsOf: (accountId: string) => repo.projectIdsOfAccount(db, accountId),

    /**
     * A new email: its account is created and added to the project; without `password` it cannot sign
     * in until it uses the set-password link in the answer (shown once). An email that already has an
     * account is only invited (contract §23): a pending invitation that grants nothing until that
     * account accepts it with the token in the answer (shown once); its password is never touched.
     */
    async create(
      projectId: string,
      input: CreateUserInput,
      actor: UserActor,
    ): Promise<User & Partial<SetPasswordLink & InvitationLink>> {
      const email = normalizeEmail(input.email);
      const existing = await repo.findAccountByEmail(db, email);
      if (existing) return invite(projectId, existing.id, email, input.role, actor);
      // Hash outside the transaction: it is the slow part and needs no lock.
      const passwordHash = input.password === undefined ? '' : await hashPassword(input.password);
      try {
        return await db.transaction().execute(async (trx) => {
          const nowMs = Date.now();
          const now = isoAt(nowMs);
          const accountId = newId('usr');
          await repo.insertAccount(trx, { id: accountId, email, name: input.name ?? '', passwordHash, now });
          await repo.insertMembership(trx, { projectId, accountId, role: input.role, now });
          await recordActivity(trx, projectId, actor, {
            action: 'user.added',
            target: { type: 'user', id: accountId },
            summary: `${actor.email} added ${email} as ${input.role}.`,
          });
          let link: SetPasswordLink | undefined;
          if (passwordHash === '') {
            // The new account's only project is this one, which the actor administers: the issuer's
            // right holds without a query.
            link = await deps.issue(trx, accountId, actor.id, nowMs);
            await recordActivity(trx, projectId, actor, linkIssued(actor, accountId, email));
          }
          return { ...active((await repo.findMember(trx, projectId, accountId))!), ...link };
        });
      } catch (err) {
        // Two concurrent invitations of the same new email: the loser sees the unique index.
        throw fromConstraint(err, { unique: `${email} is already a member of this project.` });
      }
    },

    /**
     * A set-password link for a member of the project (contract §15): only an admin of every project
     * the account belongs to may issue one (else 403); it ends none of the account's sessions (using
     * it does), and voids the account's older link.
     */
    passwordReset(projectId: string, userId: string, actor: UserActor): Promise<SetPasswordLink> {
      if (userId === actor.id) return Promise.reject(forbidden(OWN_PASSWORD));
      return db.transaction().execute(async (trx) => {
        const member = await repo.findMember(trx, projectId, userId);
        if (!member) throw notFound('User');
        if (!(await repo.administersEveryProjectOf(trx, actor.id, userId)))
          throw forbidden(NOT_EVERY_PROJECT);
        const link = await deps.issue(trx, userId, actor.id, Date.now());
        await recordActivity(
          trx,
          await repo.projectIdsOfAccount(trx, userId),
          actor,
          linkIssued(actor, userId, member.email),
        );
        return link;
      });
    },

    update(
      projectId: string,
      userId: string,
      patch: { name?: string; role?: Role },
      actor: UserActor,
    ): Promise<User> {
      return transactionWithChanges(db, changes, async (trx, changed) => {
        await lockRow(trx, 'projects', projectId);
        const member = await repo.findMember(trx, projectId, userId);
        if (!member) {
          if (await invitations.findInvitation(trx, projectId, userId)) throw conflict(INVITED_NOT_MEMBER);
          throw notFound('User');
        }
        const what: string[] = [];
        if (patch.role && patch.role !== member.role) {
          if (patch.role !== 'admin') await assertNotLastAdmin(trx, projectId, member);
          await repo.setRole(trx, projectId, userId, patch.role);
          await deps.endPreviewTokens(trx, changed, userId, projectId);
          what.push(`role from ${member.role} to ${patch.role}`);
        }
        if (patch.name !== undefined && patch.name !== member.name) {
          await repo.updateAccountName(trx, userId, patch.name, isoNow());
          what.push('name');
        }
        if (what.length > 0) {
          await recordActivity(trx, projectId, actor, {
            action: 'user.updated',
            target: { type: 'user', id: userId },
            summary: `${actor.email} changed ${member.email}'s ${what.join(' and ')}.`,
          });
        }
        return active((await repo.findMember(trx, projectId, userId))!);
      });
    },

    /** Removes a member, or cancels a pending invitation (its token stops working at once). */
    remove(projectId: string, userId: string, actor: UserActor): Promise<void> {
      return transactionWithChanges(db, changes, async (trx, changed) => {
        await lockRow(trx, 'projects', projectId);
        const member = await repo.findMember(trx, projectId, userId);
        if (!member) return cancelInvitation(trx, projectId, userId, actor);
        await assertNotLastAdmin(trx, projectId, member);
        await repo.deleteMembership(trx, projectId, userId);
        await deps.endPreviewTokens(trx, changed, userId, projectId);
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
