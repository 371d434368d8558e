import type { DbOrTx } from '../../db/database.js';
import type { AccountRow, Role } from './users.table.js';

export interface MemberRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
}

export const findAccountByEmail = (db: DbOrTx, email: string): Promise<AccountRow | undefined> =>
  db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();

export const findAccountById = (db: DbOrTx, id: string): Promise<AccountRow | undefined> =>
  db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();

/** `passwordHash` '' creates an account without a password (an invitation by set-password link). */
export async function insertAccount(
  db: DbOrTx,
  account: { id: string; email: string; name: string; passwordHash: string; now: string },
): Promise<void> {
  const { now, ...rest } = account;
  await db
    .insertInto('accounts')
    .values({ ...rest, createdAt: now, updatedAt: now })
    .execute();
}

export async function updateAccountName(db: DbOrTx, id: string, name: string, now: string): Promise<void> {
  await db.updateTable('accounts').set({ name, updatedAt: now }).where('id', '=', id).execute();
}

export async function setAccountPassword(
  db: DbOrTx,
  id: string,
  passwordHash: string,
  now: string,
): Promise<void> {
  await db.updateTable('accounts').set({ passwordHash, updatedAt: now }).where('id', '=', id).execute();
}

export async function insertMembership(
  db: DbOrTx,
  m: { projectId: string; accountId: string; role: Role; now: string },
): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ projectId: m.projectId, accountId: m.accountId, role: m.role, createdAt: m.now })
    .execute();
}

const memberColumns = [
  'accounts.id',
  'accounts.email',
  'accounts.name',
  'memberships.role',
  'memberships.createdAt',
] as const;

export const listMembers = (db: DbOrTx, projectId: string): Promise<MemberRow[]> =>
  db
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.accountId')
    .select(memberColumns)
    .where('memberships.projectId', '=', projectId)
    .orderBy('memberships.createdAt')
    .orderBy('accounts.id')
    .execute();

export const findMember = (
  db: DbOrTx,
  projectId: string,
  accountId: string,
): Promise<MemberRow | undefined> =>
  db
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.accountId')
    .select(memberColumns)
    .where('memberships.projectId', '=', projectId)
    .where('memberships.accountId', '=', accountId)
    .executeTakeFirst();

export async function findRole(db: DbOrTx, accountId: string, projectId: string): Promise<Role | null> {
  const row = await db
    .selectFrom('memberships')
    .select('role')
    .where('projectId', '=', projectId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** Projects the account administers, sorted. */
export async function adminProjectIds(db: DbOrTx, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('projectId')
    .where('accountId', '=', accountId)
    .where('role', '=', 'admin')
    .orderBy('projectId')
    .execute();
  return rows.map((r) => r.projectId);
}

/**
 * The memberships as a subquery another module joins in its own statement (sessions, API keys,
 * projects), aliased as it likes: `.innerJoin(membershipsView(db).as('memberships'), …)`. A plain
 * projection, so both databases fold it into the outer query: the same plan, and no round trip
 * more, than naming the table there.
 */
export const membershipsView = (db: DbOrTx) =>
  db.selectFrom('memberships').select(['memberships.accountId', 'memberships.projectId', 'memberships.role']);

/** The accounts' public columns as a subquery another module joins (as membershipsView). */
export const accountsView = (db: DbOrTx) =>
  db.selectFrom('accounts').select(['accounts.id', 'accounts.email']);

export async function projectIdsOfAccount(db: DbOrTx, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('projectId')
    .where('accountId', '=', accountId)
    .execute();
  return rows.map((r) => r.projectId);
}

export async function countAdmins(db: DbOrTx, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('projectId', '=', projectId)
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setRole(db: DbOrTx, projectId: string, accountId: string, role: Role): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ role })
    .where('projectId', '=', projectId)
    .where('accountId', '=', accountId)
    .execute();
}

export async function deleteMembership(db: DbOrTx, projectId: string, accountId: string): Promise<void> {
  await db
    .deleteFrom('memberships')
    .where('projectId', '=', projectId)
    .where('accountId', '=', accountId)
    .execute();
}

/**
 * Whether `issuerId` administers every project `accountId` belongs to (contract §15: an admin of one
 * site cannot take over an account that also belongs to another). One statement: the account's
 * memberships in a project where the issuer is not an admin; none means yes. An account with no
 * membership at all is nobody's to reset: false.
 */
export async function administersEveryProjectOf(
  db: DbOrTx,
  issuerId: string,
  accountId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('memberships as m')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('memberships as a')
                    .select('a.projectId')
                    .whereRef('a.projectId', '=', 'm.projectId')
                    .where('a.accountId', '=', issuerId)
                    .where('a.role', '=', 'admin'),
                ),
              ),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('outside'),
    ])
    .where('m.accountId', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.all) > 0 && Number(row.outside ?? 0) === 0;
}
