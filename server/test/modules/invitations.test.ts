import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDb } from '../helpers/app.js';
import { envelopeProblem } from '../helpers/envelope.js';
import { bearer, call, login, newMember, newProject, PASSWORD, uniqueEmail } from '../helpers/factories.js';

const HOUR = 3_600_000;

/**
 * Invitations of existing accounts (contract §23, issue 42 item 4): POST /v1/users for an email that
 * already has an account makes a pending invitation that grants nothing, answered with a token shown
 * once; only a session of that very account turns it into a membership, with the token.
 */
describeEachDb('invitations of existing accounts', (ctx) => {
  const inProject = (token: string, projectId: string) => ({
    ...bearer(token),
    'x-cms-project-id': projectId,
  });
  const invite = (token: string, projectId: string, payload: object) =>
    call(ctx.app, { method: 'POST', url: '/v1/users', headers: inProject(token, projectId), payload });
  const accept = (sessionToken: string, token: string, remoteAddress = '127.0.0.1') =>
    call(ctx.app, {
      method: 'POST',
      url: '/v1/invitations/accept',
      headers: bearer(sessionToken),
      payload: { token },
      remoteAddress,
    });
  const members = async (token: string, projectId: string) => {
    const res = await call(ctx.app, {
      method: 'GET',
      url: '/v1/users',
      headers: inProject(token, projectId),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { id: string; email: string; name: string; role: string; status: string }[];
  };
  const projectsOf = async (token: string) => {
    const res = await call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
    assert.equal(res.status, 200);
    return (res.body.data.projects as { id: string }[]).map((p) => p.id);
  };
  const inEnvelope = (res: { body: unknown; headers: Record<string, unknown> }) =>
    assert.equal(envelopeProblem(JSON.stringify(res.body), res.headers['content-type'] as string), null);

  it("a stranger who registered the email first gets no access from the real admin's invitation (issue 42, item 4)", async () => {
    const real = await newProject(ctx.app, 'Real company');
    const strangers = await newProject(ctx.app, "Stranger's site");
    const email = uniqueEmail('newhire');
    // The stranger registers the new hire's email in their own project, with a password they know.
    const planted = await invite(strangers.admin.token, strangers.project.id, {
      email,
      role: 'admin',
      password: PASSWORD,
    });
    assert.equal(planted.status, 201);
    const accountId = planted.body.data.id as string;

    const before = Date.now();
    const invited = await invite(real.admin.token, real.project.id, { email, role: 'admin' });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    const { invitationToken, invitationExpiresAt, ...member } = invited.body.data;
    assert.match(invitationToken, /^cms_inv_[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(invitationExpiresAt) - before;
    assert.ok(ttl >= 72 * HOUR - 1000 && ttl <= 72 * HOUR + 5000, `ttl ${ttl}`);
    assert.deepEqual(
      { ...member, createdAt: undefined },
      { id: accountId, email, name: '', role: 'admin', status: 'invited', createdAt: undefined },
    );
    assert.equal(invited.body.data.setPasswordToken, undefined);

    // The stranger signs in: the real project is nowhere, and every door of it is shut.
    const stranger = await login(ctx.app, email);
    assert.deepEqual(await projectsOf(stranger), [strangers.project.id]);
    const listed = await call(ctx.app, { method: 'GET', url: '/v1/projects', headers: bearer(stranger) });
    assert.deepEqual(
      listed.body.data.map((p: { id: string }) => p.id),
      [strangers.project.id],
    );
    for (const request of [
      { method: 'GET', url: `/v1/projects/${real.project.id}` },
      { method: 'PATCH', url: `/v1/projects/${real.project.id}`, payload: { name: 'Hijacked' } },
      { method: 'GET', url: '/v1/users' },
      {
        method: 'POST',
        url: '/v1/users',
        payload: { email: uniqueEmail(), role: 'admin', password: PASSWORD },
      },
      { method: 'POST', url: '/v1/preview-tokens', headers: { 'x-cms-key': real.project.apiKey } },
      { method: 'GET', url: '/v1/activity' },
    ] as const) {
      const res = await call(ctx.app, {
        ...request,
        headers: { ...inProject(stranger, real.project.id), ...('headers' in request && request.headers) },
      });
      assert.equal(res.status, 403, `${request.method} ${request.url}: ${JSON.stringify(res.body)}`);
      inEnvelope(res);
    }
    // A secret key "for every site it administers" does not cover the project it is only invited to.
    const key = await call(ctx.app, {
      method: 'POST',
      url: '/v1/api-keys',
      headers: bearer(stranger),
      payload: { name: 'all', scope: 'all', access: 'write' },
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const covered = await call(ctx.app, {
      method: 'GET',
      url: '/v1/objects',
      headers: { ...bearer(key.body.data.key), 'x-cms-project-id': real.project.id },
    });
    assert.equal(covered.status, 403);
    // Its session alone still resolves to its only project (the pending one is not a candidate).
    const own = await call(ctx.app, { method: 'GET', url: '/v1/users', headers: bearer(stranger) });
    assert.equal(own.status, 200);

    // The admin sees the invitation pending; the account's name is not shown.
    const list = await members(real.admin.token, real.project.id);
    assert.deepEqual(
      list.map((m) => [m.email, m.status, m.name]),
      [
        [real.admin.email, 'active', ''],
        [email, 'invited', ''],
      ],
    );
    assert.equal(
      (list[1] as unknown as { invitationExpiresAt: string }).invitationExpiresAt,
      invitationExpiresAt,
    );
    // The stranger cannot accept without the token, which they never saw.
    const guessed = await accept(stranger, 'cms_inv_not-the-token');
    assert.equal(guessed.status, 401);
    assert.deepEqual(await projectsOf(stranger), [strangers.project.id]);
  });

  it('the invited account accepts with its own session: it becomes a member with the role; the token works once', async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const account = await newMember(ctx.app, one.admin.token, one.project.id);
    const invited = await invite(two.admin.token, two.project.id, { email: account.email, role: 'editor' });
    const token = invited.body.data.invitationToken as string;

    const accepted = await accept(account.token, token);
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.deepEqual(accepted.body, { data: { projectId: two.project.id, role: 'editor' }, error: null });
    assert.deepEqual((await projectsOf(account.token)).sort(), [one.project.id, two.project.id].sort());
    const listed = (await members(two.admin.token, two.project.id)).find((m) => m.id === account.id);
    assert.equal(listed?.status, 'active');
    assert.equal(listed?.role, 'editor');
    assert.equal((await members(account.token, two.project.id)).length, 2);

    const again = await accept(account.token, token);
    assert.equal(again.status, 401);
    assert.equal(again.body.error.code, 'unauthorized');
    inEnvelope(again);
    // Now a member: inviting again is 409, as for any member.
    const dup = await invite(two.admin.token, two.project.id, { email: account.email, role: 'admin' });
    assert.equal(dup.status, 409);
  });

  it("another account's session cannot accept (403, the invitation stays); unknown and expired tokens are 401", async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const invitee = await newMember(ctx.app, one.admin.token, one.project.id);
    const other = await newMember(ctx.app, one.admin.token, one.project.id);
    const invited = await invite(two.admin.token, two.project.id, { email: invitee.email, role: 'admin' });
    const token = invited.body.data.invitationToken as string;

    for (const session of [other.token, two.admin.token]) {
      const res = await accept(session, token);
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'forbidden');
      assert.ok(!res.body.error.message.includes(invitee.email), 'the invitee is not named');
      inEnvelope(res);
    }
    assert.deepEqual(await projectsOf(other.token), [one.project.id]);
    assert.equal((await accept(invitee.token, 'cms_inv_unknown')).status, 401);
    const noSession = await call(ctx.app, {
      method: 'POST',
      url: '/v1/invitations/accept',
      payload: { token },
    });
    assert.equal(noSession.status, 401);

    await sql`update invitations set expires_at = ${new Date(Date.now() - 1000).toISOString()}
      where account_id = ${invitee.id}`.execute(ctx.db);
    const expired = await accept(invitee.token, token);
    assert.equal(expired.status, 401);
    inEnvelope(expired);
    assert.deepEqual(await projectsOf(invitee.token), [one.project.id]);
  });

  it('an admin cancels a pending invitation with DELETE /v1/users/:id; its token stops working', async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const invitee = await newMember(ctx.app, one.admin.token, one.project.id);
    const invited = await invite(two.admin.token, two.project.id, { email: invitee.email, role: 'editor' });
    const token = invited.body.data.invitationToken as string;

    // Not a member: no role to change (409), no password to reset (404).
    const patch = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/users/${invitee.id}`,
      headers: inProject(two.admin.token, two.project.id),
      payload: { role: 'admin' },
    });
    assert.equal(patch.status, 409, JSON.stringify(patch.body));
    const reset = await call(ctx.app, {
      method: 'POST',
      url: `/v1/users/${invitee.id}/password-reset`,
      headers: inProject(two.admin.token, two.project.id),
    });
    assert.equal(reset.status, 404);

    const canceled = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/users/${invitee.id}`,
      headers: inProject(two.admin.token, two.project.id),
    });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    assert.deepEqual(canceled.body, { data: { id: invitee.id, deleted: true }, error: null });
    assert.deepEqual(
      (await members(two.admin.token, two.project.id)).map((m) => m.email),
      [two.admin.email],
    );
    assert.equal((await accept(invitee.token, token)).status, 401);
    const twice = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/users/${invitee.id}`,
      headers: inProject(two.admin.token, two.project.id),
    });
    assert.equal(twice.status, 404);
  });

  it('inviting a pending account again replaces its invitation: a new token and role, the old token void', async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const invitee = await newMember(ctx.app, one.admin.token, one.project.id);
    const first = await invite(two.admin.token, two.project.id, { email: invitee.email, role: 'editor' });
    const second = await invite(two.admin.token, two.project.id, { email: invitee.email, role: 'admin' });
    assert.equal(second.status, 201);
    assert.notEqual(second.body.data.invitationToken, first.body.data.invitationToken);
    assert.equal((await accept(invitee.token, first.body.data.invitationToken)).status, 401);
    const ok = await accept(invitee.token, second.body.data.invitationToken);
    assert.deepEqual(ok.body.data, { projectId: two.project.id, role: 'admin' });
  });

  it('a pending admin is not an admin: the last active admin still cannot step down', async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const invitee = await newMember(ctx.app, one.admin.token, one.project.id);
    assert.equal(
      (await invite(two.admin.token, two.project.id, { email: invitee.email, role: 'admin' })).status,
      201,
    );
    const demote = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/users/${two.admin.id}`,
      headers: inProject(two.admin.token, two.project.id),
      payload: { role: 'editor' },
    });
    assert.equal(demote.status, 409, JSON.stringify(demote.body));
    const leave = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/users/${two.admin.id}`,
      headers: inProject(two.admin.token, two.project.id),
    });
    assert.equal(leave.status, 409);
  });

  it('tokens are stored hashed; activity records the invitation, its acceptance and a cancellation, never a token', async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const a = await newMember(ctx.app, one.admin.token, one.project.id);
    const b = await newMember(ctx.app, one.admin.token, one.project.id);
    const toA = await invite(two.admin.token, two.project.id, { email: a.email, role: 'editor' });
    const toB = await invite(two.admin.token, two.project.id, { email: b.email, role: 'editor' });
    const tokens = [toA.body.data.invitationToken, toB.body.data.invitationToken] as string[];
    const stored = await ctx.db.selectFrom('invitations').select('tokenHash').execute();
    for (const row of stored) {
      assert.match(row.tokenHash, /^[0-9a-f]{64}$/);
      for (const token of tokens) assert.ok(!row.tokenHash.includes(token.slice(8, 20)));
    }
    assert.equal((await accept(a.token, tokens[0]!)).status, 200);
    await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/users/${b.id}`,
      headers: inProject(two.admin.token, two.project.id),
    });
    const activity = await call(ctx.app, {
      method: 'GET',
      url: '/v1/activity?limit=200',
      headers: inProject(two.admin.token, two.project.id),
    });
    const records = activity.body.data as {
      action: string;
      actor: { id: string };
      target: { id: string };
    }[];
    const of = (action: string) =>
      records.filter((r) => r.action === action).map((r) => [r.actor.id, r.target.id]);
    assert.deepEqual(of('user.invited').sort(), [...[a.id, b.id].sort().map((id) => [two.admin.id, id])]);
    assert.deepEqual(of('user.invitation_accepted'), [[a.id, a.id]]);
    assert.deepEqual(of('user.invitation_canceled'), [[two.admin.id, b.id]]);
    assert.deepEqual(of('user.added'), []);
    const text = JSON.stringify(activity.body);
    for (const token of tokens) assert.ok(!text.includes(token.slice(8, 20)), 'a token in the activity log');
  });

  it('accept is rate limited as sign-in is: after 10 refused tokens from one address, 429 with Retry-After', async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const invitee = await newMember(ctx.app, one.admin.token, one.project.id);
    const invited = await invite(two.admin.token, two.project.id, { email: invitee.email, role: 'editor' });
    const address = '203.0.113.9';
    for (let i = 0; i < 10; i++) {
      assert.equal((await accept(invitee.token, `cms_inv_guess-${i}`, address)).status, 401, `guess ${i}`);
    }
    const limited = await accept(invitee.token, invited.body.data.invitationToken, address);
    assert.equal(limited.status, 429, JSON.stringify(limited.body));
    assert.equal(limited.body.error.code, 'rate_limited');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    inEnvelope(limited);
    // The token was not spent: from another address it still works.
    assert.equal((await accept(invitee.token, invited.body.data.invitationToken)).status, 200);
  });
});
