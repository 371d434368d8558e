import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, joinProject, newMember, newProject } from '../helpers/factories.js';

const NAME = '0022_invitations';

/**
 * Migration 0022 (pending invitations, contract §23) down and up again on a database with members and
 * invitations in it: every membership stays active and keeps its role; pending invitations go with the
 * table at `down` (their tokens then fail), and new ones work after `up`.
 */
describeEachDb('migration 0022 on a populated database', (ctx) => {
  it('keeps every membership across down and up; a pending invitation is dropped with its table', async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const editor = await newMember(ctx.app, one.admin.token, one.project.id, 'editor');
    await joinProject(ctx.app, two.admin.token, two.project.id, editor, 'admin');
    const pending = await newMember(ctx.app, one.admin.token, one.project.id, 'editor');
    const asTwo = { ...bearer(two.admin.token), 'x-cms-project-id': two.project.id };
    const invited = await call(ctx.app, {
      method: 'POST',
      url: '/v1/users',
      headers: asTwo,
      payload: { email: pending.email, role: 'editor' },
    });
    assert.equal(invited.status, 201);
    const memberships = async () =>
      (
        await sql<{ projectId: string; accountId: string; role: string }>`
          select project_id, account_id, role from memberships order by project_id, account_id`.execute(
          ctx.db,
        )
      ).rows;
    const before = await memberships();
    assert.equal(before.length, 5);

    for (;;) {
      const { results } = await migrateDown(ctx.db);
      assert.equal(results?.[0]?.status, 'Success');
      if (results![0]!.migrationName === NAME) break;
    }
    await assert.rejects(sql`select 1 from invitations`.execute(ctx.db));
    assert.deepEqual(await memberships(), before);

    await migrateToLatest(ctx.db);
    assert.deepEqual(await memberships(), before);
    const list = await call(ctx.app, { method: 'GET', url: '/v1/users', headers: asTwo });
    assert.deepEqual(
      list.body.data.map((u: { email: string; role: string; status: string }) => [u.email, u.role, u.status]),
      [
        [two.admin.email, 'admin', 'active'],
        [editor.email, 'admin', 'active'],
      ],
    );
    const old = await call(ctx.app, {
      method: 'POST',
      url: '/v1/invitations/accept',
      headers: bearer(pending.token),
      payload: { token: invited.body.data.invitationToken },
    });
    assert.equal(old.status, 401);
    await joinProject(ctx.app, two.admin.token, two.project.id, pending, 'editor');
  });
});
