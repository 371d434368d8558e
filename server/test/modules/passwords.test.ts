import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newSite, pageUrl, sync } from '../helpers/content.js';
import { envelopeProblem } from '../helpers/envelope.js';
import { bearer, call, joinProject, login, newMember, newProject, PASSWORD } from '../helpers/factories.js';

const NEW_PASSWORD = 'a brand new passphrase';

describeEachDb('changing one’s password (POST /v1/auth/password)', (ctx) => {
  const change = (token: string | null, payload: unknown) =>
    call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/password',
      headers: token ? bearer(token) : {},
      payload: payload as object,
    });
  const me = (token: string) => call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
  const actions = async (projectId: string, adminToken: string) => {
    const res = await call(ctx.app, {
      method: 'GET',
      url: '/v1/activity?limit=200',
      headers: { ...bearer(adminToken), 'x-cms-project-id': projectId },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as {
      action: string;
      actor: { id?: string };
      target: { id: string };
      summary: string;
    }[];
  };

  it('changes the password, ends every other session of the account, keeps this one, and records it in every project', async () => {
    const one = await newProject(ctx.app, 'One');
    const two = await newProject(ctx.app, 'Two');
    const member = await newMember(ctx.app, one.admin.token, one.project.id, 'editor');
    await joinProject(ctx.app, two.admin.token, two.project.id, member, 'admin');
    const otherSession = await login(ctx.app, member.email);

    const res = await change(member.token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { data: { changed: true }, error: null });

    assert.equal((await me(member.token)).status, 200);
    assert.equal((await me(otherSession)).status, 401);
    const old = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: member.email, password: PASSWORD },
    });
    assert.equal(old.status, 401);
    await login(ctx.app, member.email, NEW_PASSWORD);

    for (const [projectId, token] of [
      [one.project.id, one.admin.token],
      [two.project.id, two.admin.token],
    ] as const) {
      const records = (await actions(projectId, token)).filter((r) => r.action === 'user.password_changed');
      assert.equal(records.length, 1, projectId);
      assert.equal(records[0]?.actor.id, member.id);
      assert.equal(records[0]?.target.id, member.id);
      assert.ok(!records[0]?.summary.includes(NEW_PASSWORD));
    }
  });

  it('a wrong current password is 401 invalid_credentials, changes nothing, and counts for the login limiter', async () => {
    const { admin } = await newProject(ctx.app);
    const wrong = await change(admin.token, {
      currentPassword: 'not my password',
      newPassword: NEW_PASSWORD,
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'invalid_credentials');
    assert.equal(envelopeProblem(JSON.stringify(wrong.body), wrong.headers['content-type'] as string), null);
    await login(ctx.app, admin.email); // the old password still works (and clears the failure)
    // Ten wrong guesses are ten failures for this address and email: sign-in is then refused.
    for (let i = 0; i < 10; i++) {
      const guess = await change(admin.token, { currentPassword: `guess ${i}`, newPassword: NEW_PASSWORD });
      assert.equal(guess.status, 401);
    }
    const limited = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: admin.email, password: PASSWORD },
    });
    assert.equal(limited.status, 429);
    const changeLimited = await change(admin.token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    assert.equal(changeLimited.status, 429);
    assert.ok(changeLimited.headers['retry-after']);
  });

  it('needs a session, and a new password of 8 characters or more', async () => {
    const { admin } = await newProject(ctx.app);
    const anonymous = await change(null, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, 'unauthorized');
    const short = await change(admin.token, { currentPassword: PASSWORD, newPassword: 'short' });
    assert.equal(short.status, 400);
    assert.equal(short.body.error.code, 'validation_failed');
    const extra = await change(admin.token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, x: 1 });
    assert.equal(extra.status, 400);
    await login(ctx.app, admin.email);
  });
});

describeEachDb('a password change ends the preview tokens the account created (contract §17)', (ctx) => {
  it('the editor’s own tokens answer 401 after the change; another member’s keep working', async () => {
    const site = await newSite(ctx.app);
    const tokenOf = async (headers: Record<string, string>) => {
      const res = await call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.token as string;
    };
    const read = (token: string) =>
      call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: { ...site.key, 'x-cms-preview': token } });
    await sync(ctx.app, site, '/');
    const editors = await tokenOf(site.editing);
    const admins = await tokenOf({ ...site.key, ...bearer(site.admin.token) });
    assert.equal((await read(editors)).status, 200);

    const changed = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/password',
      headers: bearer(site.editor.token),
      payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await read(editors)).status, 401);
    assert.equal((await read(admins)).status, 200);
  });
});
