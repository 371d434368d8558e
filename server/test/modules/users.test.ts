import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, login, newMember, newProject, PASSWORD, uniqueEmail } from '../helpers/factories.js';

describeEachDb('users', (ctx) => {
  const as = (token: string, projectId?: string) => ({
    ...bearer(token),
    ...(projectId && { 'x-cms-project-id': projectId }),
  });

  it('admins add users (201); members list them; editors cannot add (403)', async () => {
    const { admin } = await newProject(ctx.app);
    const email = uniqueEmail('grace');
    const created = await call(ctx.app, {
      method: 'POST',
      url: '/v1/users',
      headers: as(admin.token),
      payload: { email, name: 'Grace', role: 'editor', password: PASSWORD },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body.data).sort(), [
      'createdAt',
      'email',
      'id',
      'name',
      'role',
      'status',
    ]);
    assert.equal(created.body.data.status, 'active');
    assert.equal(created.body.data.role, 'editor');

    const editorToken = await login(ctx.app, email);
    const list = await call(ctx.app, { method: 'GET', url: '/v1/users', headers: as(editorToken) });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((u: { email: string; role: string }) => [u.email, u.role]),
      [
        [admin.email, 'admin'],
        [email, 'editor'],
      ],
    );
    assert.ok(!JSON.stringify(list.body).includes('argon2'), 'no password hash in responses');

    const denied = await call(ctx.app, {
      method: 'POST',
      url: '/v1/users',
      headers: as(editorToken),
      payload: { email: uniqueEmail(), role: 'editor', password: PASSWORD },
    });
    assert.equal(denied.status, 403);
  });

  it('adding an email that is already a member is 409; an existing account keeps its password', async () => {
    const a = await newProject(ctx.app);
    const b = await newProject(ctx.app);
    const dup = await call(ctx.app, {
      method: 'POST',
      url: '/v1/users',
      headers: as(a.admin.token),
      payload: { email: a.admin.email, role: 'editor', password: PASSWORD },
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error.code, 'conflict');

    const cross = await call(ctx.app, {
      method: 'POST',
      url: '/v1/users',
      headers: as(b.admin.token),
      payload: { email: a.admin.email, role: 'editor', password: 'a different password' },
    });
    assert.equal(cross.status, 201);
    assert.equal(cross.body.data.id, a.admin.id);
    assert.equal(cross.body.data.status, 'invited'); // contract §23: pending until the account accepts
    await login(ctx.app, a.admin.email, PASSWORD); // the original password still works
  });

  it('PATCH changes name and role; DELETE removes the membership', async () => {
    const { project, admin } = await newProject(ctx.app);
    const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
    const promoted = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/users/${editor.id}`,
      headers: as(admin.token),
      payload: { name: 'Ed', role: 'admin' },
    });
    assert.equal(promoted.status, 200);
    assert.equal(promoted.body.data.role, 'admin');
    assert.equal(promoted.body.data.name, 'Ed');

    const removed = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/users/${editor.id}`,
      headers: as(admin.token),
    });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { data: { id: editor.id, deleted: true }, error: null });
    const after = await call(ctx.app, {
      method: 'GET',
      url: '/v1/users',
      headers: as(editor.token, project.id),
    });
    assert.equal(after.status, 403, 'a removed member loses access');
  });

  it('the last admin cannot be demoted or removed (409), another admin can be', async () => {
    const { project, admin } = await newProject(ctx.app);
    const demote = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/users/${admin.id}`,
      headers: as(admin.token),
      payload: { role: 'editor' },
    });
    assert.equal(demote.status, 409);
    const remove = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/users/${admin.id}`,
      headers: as(admin.token),
    });
    assert.equal(remove.status, 409);

    const second = await newMember(ctx.app, admin.token, project.id, 'admin');
    const ok = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/users/${admin.id}`,
      headers: as(second.token),
      payload: { role: 'editor' },
    });
    assert.equal(ok.status, 200);
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const { project, admin } = await newProject(ctx.app);
    const second = await newMember(ctx.app, admin.token, project.id, 'admin');
    const results = await Promise.all([
      call(ctx.app, {
        method: 'PATCH',
        url: `/v1/users/${second.id}`,
        headers: as(admin.token),
        payload: { role: 'editor' },
      }),
      call(ctx.app, {
        method: 'PATCH',
        url: `/v1/users/${admin.id}`,
        headers: as(second.token),
        payload: { role: 'editor' },
      }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    assert.ok(statuses.includes(200), JSON.stringify(statuses));
    const admins = await ctx.db
      .selectFrom('memberships')
      .select('accountId')
      .where('projectId', '=', project.id)
      .where('role', '=', 'admin')
      .execute();
    assert.equal(admins.length, 1);
  });

  it("another project's user is 404; a bad body is 400", async () => {
    const a = await newProject(ctx.app);
    const b = await newProject(ctx.app);
    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await call(ctx.app, {
        method,
        url: `/v1/users/${b.admin.id}`,
        headers: as(a.admin.token),
        ...(method === 'PATCH' && { payload: { name: 'x' } }),
      });
      assert.equal(res.status, 404, method);
      assert.equal(res.body.error.code, 'not_found');
    }
    const bad = await call(ctx.app, {
      method: 'POST',
      url: '/v1/users',
      headers: as(a.admin.token),
      payload: { email: 'x@example.com', role: 'owner', password: 'short' },
    });
    assert.equal(bad.status, 400);
    const paths = bad.body.error.details.map((d: { path: string }) => d.path);
    assert.ok(paths.includes('body.password'));
    assert.ok(paths.some((p: string) => p.startsWith('body.role')));
  });

  it('no session is 401', async () => {
    const res = await call(ctx.app, { method: 'GET', url: '/v1/users' });
    assert.equal(res.status, 401);
  });
});
