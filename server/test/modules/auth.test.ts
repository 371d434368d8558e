import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, login, newProject, PASSWORD } from '../helpers/factories.js';

describeEachDb('auth', (ctx) => {
  it('login returns the user with projects, a token and its expiry; me answers with the same user', async () => {
    const { project, admin } = await newProject(ctx.app, 'Login site');
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: admin.email.toUpperCase(), password: PASSWORD },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.error, null);
    const { user, token, expiresAt } = res.body.data;
    assert.equal(user.email, admin.email);
    assert.deepEqual(user.projects, [{ id: project.id, name: 'Login site', role: 'admin' }]);
    assert.ok(token.length >= 43, 'token carries at least 256 bits');
    const ttl = Date.parse(expiresAt) - Date.now();
    assert.ok(ttl > 604_700_000 && ttl <= 604_800_000, 'default lifetime is 7 days');

    const me = await call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.data, user);
  });

  it('wrong password and unknown email get the same 401 invalid_credentials', async () => {
    const { admin } = await newProject(ctx.app);
    const wrong = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: admin.email, password: 'not the password' },
    });
    const unknown = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'nobody@example.com', password: 'not the password' },
    });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(wrong.body.error.code, 'invalid_credentials');
  });

  it('me without a token, with a malformed header or with an unknown token is 401', async () => {
    for (const headers of [{}, { authorization: 'Token abc' }, bearer('not-a-real-token')]) {
      const res = await call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.body.error.code, 'unauthorized');
      assert.equal(res.body.data, null);
    }
  });

  it('refresh returns a new token and the old one stops working at once', async () => {
    const { admin } = await newProject(ctx.app);
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: bearer(admin.token),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.data).sort(), ['expiresAt', 'token']);
    assert.notEqual(res.body.data.token, admin.token);
    const old = await call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(admin.token) });
    assert.equal(old.status, 401);
    const fresh = await call(ctx.app, {
      method: 'GET',
      url: '/v1/auth/me',
      headers: bearer(res.body.data.token),
    });
    assert.equal(fresh.status, 200);
    const again = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: bearer(admin.token),
    });
    assert.equal(again.status, 401, 'a refreshed-away token cannot refresh again');
  });

  it('logout ends the presented session only', async () => {
    const { admin } = await newProject(ctx.app);
    const other = await login(ctx.app, admin.email);
    const res = await call(ctx.app, { method: 'POST', url: '/v1/auth/logout', headers: bearer(admin.token) });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: { loggedOut: true }, error: null });
    assert.equal(
      (await call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(admin.token) })).status,
      401,
    );
    assert.equal(
      (await call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(other) })).status,
      200,
    );
  });

  it('an expired session is 401', async () => {
    const { admin } = await newProject(ctx.app);
    await ctx.db
      .updateTable('sessions')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const res = await call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(admin.token) });
    assert.equal(res.status, 401);
  });

  it('stores no password or session token in plaintext', async () => {
    const { admin } = await newProject(ctx.app);
    const account = await ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', admin.email)
      .executeTakeFirstOrThrow();
    assert.notEqual(account.passwordHash, PASSWORD);
    assert.ok(!account.passwordHash.includes(PASSWORD));
    assert.match(account.passwordHash, /^\$argon2id\$/);
    const sessions = await ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('accountId', '=', admin.id)
      .execute();
    assert.ok(sessions.length > 0);
    for (const s of sessions) {
      assert.notEqual(s.tokenHash, admin.token);
      assert.ok(!JSON.stringify(s).includes(admin.token));
    }
  });

  it('after 10 failures for one address and email, login is 429 with Retry-After, even with the right password', async () => {
    const { admin } = await newProject(ctx.app);
    const attempt = (password: string, remoteAddress = '203.0.113.7') =>
      call(ctx.app, {
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: admin.email, password },
        remoteAddress,
      });
    for (let i = 0; i < 10; i++) assert.equal((await attempt('wrong password')).status, 401);
    const limited = await attempt(PASSWORD);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    // Another client address is not affected.
    assert.equal((await attempt(PASSWORD, '198.51.100.9')).status, 200);
  });

  it('after 100 failures from one address across emails, that address is limited', async () => {
    const remoteAddress = '192.0.2.55';
    for (let i = 0; i < 100; i++) {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: `probe-${i}@example.com`, password: 'guess' },
        remoteAddress,
      });
      assert.equal(res.status, 401);
    }
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'another@example.com', password: 'guess' },
      remoteAddress,
    });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers['retry-after']) > 0);
  });

  it('a successful login clears the failures of that address and email', async () => {
    const { admin } = await newProject(ctx.app);
    const remoteAddress = '203.0.113.99';
    const attempt = (password: string) =>
      call(ctx.app, {
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: admin.email, password },
        remoteAddress,
      });
    for (let i = 0; i < 9; i++) await attempt('wrong');
    assert.equal((await attempt(PASSWORD)).status, 200);
    for (let i = 0; i < 9; i++) assert.equal((await attempt('wrong')).status, 401);
    assert.equal((await attempt(PASSWORD)).status, 200);
  });

  it('login validates its body', async () => {
    const res = await call(ctx.app, { method: 'POST', url: '/v1/auth/login', payload: { email: 'a@b.co' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'validation_failed');
    assert.deepEqual(res.body.error.details, [
      { path: 'body.password', message: "must have required property 'password'" },
    ]);
  });
});
