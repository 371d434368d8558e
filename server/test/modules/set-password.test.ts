import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDb } from '../helpers/app.js';
import { envelopeProblem } from '../helpers/envelope.js';
import {
  bearer,
  call,
  joinProject,
  login,
  newMember,
  newProject,
  uniqueEmail,
} from '../helpers/factories.js';

const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(chunk.toString());
    done();
  },
});

const CHOSEN = 'the invitee chose this';
const HOUR = 3_600_000;

describeEachDb(
  'set-password links (POST /v1/users without password, password-reset, set-password)',
  (ctx) => {
    const asAdmin = (token: string, projectId: string) => ({
      ...bearer(token),
      'x-cms-project-id': projectId,
    });
    const invite = (token: string, projectId: string, payload: object) =>
      call(ctx.app, { method: 'POST', url: '/v1/users', headers: asAdmin(token, projectId), payload });
    const reset = (token: string, projectId: string, userId: string) =>
      call(ctx.app, {
        method: 'POST',
        url: `/v1/users/${userId}/password-reset`,
        headers: asAdmin(token, projectId),
      });
    const setPassword = (token: string, password = CHOSEN, remoteAddress = '127.0.0.1') =>
      call(ctx.app, {
        method: 'POST',
        url: '/v1/auth/set-password',
        payload: { token, password },
        remoteAddress,
      });
    const signIn = (email: string, password: string) =>
      call(ctx.app, { method: 'POST', url: '/v1/auth/login', payload: { email, password } });
    const me = (token: string) =>
      call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
    const inEnvelope = (res: { body: unknown; headers: Record<string, unknown> }) =>
      assert.equal(envelopeProblem(JSON.stringify(res.body), res.headers['content-type'] as string), null);

    it('an invitation without a password answers a 72-hour link; the account cannot sign in until it is used, once', async () => {
      const { project, admin } = await newProject(ctx.app);
      const email = uniqueEmail('invitee');
      const before = Date.now();
      const res = await invite(admin.token, project.id, { email, role: 'editor', name: 'Invitee' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const { setPasswordToken: token, setPasswordExpiresAt: expiresAt, ...user } = res.body.data;
      assert.match(token, /^cms_sp_[A-Za-z0-9_-]{43}$/);
      const ttl = Date.parse(expiresAt) - before;
      assert.ok(ttl >= 72 * HOUR - 1000 && ttl <= 72 * HOUR + 5000, `ttl ${ttl}`);
      assert.equal(user.email, email);
      assert.equal(user.role, 'editor');

      const blank = await signIn(email, '');
      assert.equal(blank.status, 400); // the schema wants a password
      const guess = await signIn(email, 'any password at all');
      assert.equal(guess.status, 401);
      assert.equal(guess.body.error.code, 'invalid_credentials');

      const used = await setPassword(token);
      assert.equal(used.status, 200, JSON.stringify(used.body));
      assert.equal(used.body.data.user.id, user.id);
      assert.deepEqual(used.body.data.user.projects, [
        { id: project.id, name: project.name, role: 'editor' },
      ]);
      assert.equal((await me(used.body.data.token)).status, 200);
      await login(ctx.app, email, CHOSEN);

      const again = await setPassword(token, 'a second choice here');
      assert.equal(again.status, 401);
      assert.equal(again.body.error.code, 'unauthorized');
      inEnvelope(again);
      await login(ctx.app, email, CHOSEN);
    });

    it('never issues a link for an account that already exists, with or without a password', async () => {
      const one = await newProject(ctx.app, 'One');
      const two = await newProject(ctx.app, 'Two');
      const member = await newMember(ctx.app, one.admin.token, one.project.id);
      const res = await invite(two.admin.token, two.project.id, { email: member.email, role: 'editor' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.data.setPasswordToken, undefined);
      assert.equal(res.body.data.setPasswordExpiresAt, undefined);
      assert.equal(res.body.data.status, 'invited'); // an invitation instead (contract §23)
      await login(ctx.app, member.email); // its password is untouched
      const withPassword = await invite(one.admin.token, one.project.id, {
        email: uniqueEmail(),
        role: 'editor',
        password: 'chosen by the admin',
      });
      assert.equal(withPassword.status, 201);
      assert.equal(withPassword.body.data.setPasswordToken, undefined);
    });

    it('a reset ends no session; using it sets the password, ends every session and signs in; a newer link voids the older', async () => {
      const { project, admin } = await newProject(ctx.app);
      const member = await newMember(ctx.app, admin.token, project.id);
      const second = await login(ctx.app, member.email);
      const first = await reset(admin.token, project.id, member.id);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(Object.keys(first.body.data).sort(), ['setPasswordExpiresAt', 'setPasswordToken']);
      const newer = await reset(admin.token, project.id, member.id);
      assert.equal((await me(member.token)).status, 200);
      assert.equal((await me(second)).status, 200);

      const older = await setPassword(first.body.data.setPasswordToken);
      assert.equal(older.status, 401);
      const used = await setPassword(newer.body.data.setPasswordToken);
      assert.equal(used.status, 200);
      assert.equal((await me(member.token)).status, 401);
      assert.equal((await me(second)).status, 401);
      assert.equal((await me(used.body.data.token)).status, 200);
      assert.equal((await signIn(member.email, member.password)).status, 401);
      await login(ctx.app, member.email, CHOSEN);
    });

    it("another project's admin cannot issue a link for a shared account; an admin of every one of its projects can", async () => {
      const one = await newProject(ctx.app, 'One');
      const two = await newProject(ctx.app, 'Two');
      const shared = await newMember(ctx.app, one.admin.token, one.project.id, 'editor');
      await joinProject(ctx.app, two.admin.token, two.project.id, shared, 'editor');

      for (const [token, projectId] of [
        [one.admin.token, one.project.id],
        [two.admin.token, two.project.id],
      ] as const) {
        const refused = await reset(token, projectId, shared.id);
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, 'forbidden');
        inEnvelope(refused);
      }
      // One's admin joins Two as an admin: now they administer every project of the account.
      await joinProject(ctx.app, two.admin.token, two.project.id, one.admin, 'admin');
      assert.equal((await reset(one.admin.token, one.project.id, shared.id)).status, 200);
    });

    it('is refused to editors (403), for non-members (404), and each refusal is in the envelope', async () => {
      const { project, admin } = await newProject(ctx.app);
      const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
      const other = await newProject(ctx.app, 'Other');
      const byEditor = await reset(editor.token, project.id, admin.id);
      assert.equal(byEditor.status, 403);
      inEnvelope(byEditor);
      const stranger = await reset(admin.token, project.id, other.admin.id);
      assert.equal(stranger.status, 404);
      inEnvelope(stranger);
      const unknown = await reset(admin.token, project.id, 'usr_00000000000000000000000000');
      assert.equal(unknown.status, 404);
    });

    it("another project's invitation of the email voids nothing: the invitee's link works and the admin's reset is 200 (issue 42, item 5)", async () => {
      const real = await newProject(ctx.app, 'Real');
      const stranger = await newProject(ctx.app, 'Stranger');
      const email = uniqueEmail('newhire');
      const invited = await invite(real.admin.token, real.project.id, { email, role: 'editor' });
      assert.equal(invited.status, 201);
      // The stranger adds the same email to their own project: only a pending invitation now.
      const meddled = await invite(stranger.admin.token, stranger.project.id, { email, role: 'admin' });
      assert.equal(meddled.status, 201, JSON.stringify(meddled.body));
      assert.equal(meddled.body.data.status, 'invited');
      // The real admin may still reset (the pending invitation is not a project of the account)...
      const reissued = await reset(real.admin.token, real.project.id, invited.body.data.id);
      assert.equal(reissued.status, 200, JSON.stringify(reissued.body));
      // ...and the link, issued before the stranger's invitation, works.
      const res = await setPassword(reissued.body.data.setPasswordToken);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.data.user.projects.map((p: { id: string }) => p.id),
        [real.project.id],
      );
      await login(ctx.app, email, CHOSEN);
    });

    it('the first link also survives another project inviting the email', async () => {
      const real = await newProject(ctx.app, 'Real');
      const stranger = await newProject(ctx.app, 'Stranger');
      const email = uniqueEmail('newhire');
      const invited = await invite(real.admin.token, real.project.id, { email, role: 'editor' });
      assert.equal(
        (await invite(stranger.admin.token, stranger.project.id, { email, role: 'admin' })).status,
        201,
      );
      const res = await setPassword(invited.body.data.setPasswordToken);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });

    it("an admin cannot issue a link for their own account (403): one's own password only with the current one (issue 42, item 6)", async () => {
      const { project, admin } = await newProject(ctx.app);
      await newMember(ctx.app, admin.token, project.id, 'admin'); // not the last admin: no other rule refuses
      const own = await reset(admin.token, project.id, admin.id);
      assert.equal(own.status, 403, JSON.stringify(own.body));
      assert.equal(own.body.error.code, 'forbidden');
      assert.match(own.body.error.message, /POST \/v1\/auth\/password/);
      inEnvelope(own);
      const stored = await ctx.db
        .selectFrom('setPasswordTokens')
        .select('tokenHash')
        .where('accountId', '=', admin.id)
        .execute();
      assert.equal(stored.length, 0, 'no link was issued');
      await login(ctx.app, admin.email);
    });

    it('set-password is rate limited as sign-in is: after 10 refused uses from one address, 429 with Retry-After', async () => {
      const { project, admin } = await newProject(ctx.app);
      const invited = await invite(admin.token, project.id, { email: uniqueEmail(), role: 'editor' });
      const address = '203.0.113.42'; // its own client address: the other tests' failures do not count
      for (let i = 0; i < 10; i++) {
        const res = await setPassword(`cms_sp_guess-${i}`, CHOSEN, address);
        assert.equal(res.status, 401, `guess ${i}`);
      }
      const limited = await setPassword(invited.body.data.setPasswordToken, CHOSEN, address);
      assert.equal(limited.status, 429, JSON.stringify(limited.body));
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      inEnvelope(limited);
      // Another address is not limited: the link still works there.
      assert.equal((await setPassword(invited.body.data.setPasswordToken)).status, 200);
    });

    it("the issuer's right is checked again at use: a demoted issuer's link is 403 and sets nothing", async () => {
      const { project, admin } = await newProject(ctx.app);
      const issuer = await newMember(ctx.app, admin.token, project.id, 'admin');
      const member = await newMember(ctx.app, admin.token, project.id, 'editor');
      const link = await reset(issuer.token, project.id, member.id);
      assert.equal(link.status, 200);
      const demoted = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/users/${issuer.id}`,
        headers: asAdmin(admin.token, project.id),
        payload: { role: 'editor' },
      });
      assert.equal(demoted.status, 200);
      const res = await setPassword(link.body.data.setPasswordToken);
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'forbidden');
      inEnvelope(res);
      assert.equal((await me(member.token)).status, 200);
      await login(ctx.app, member.email);
    });

    it('an expired or unknown link is 401; a short password is 400', async () => {
      const { project, admin } = await newProject(ctx.app);
      const invited = await invite(admin.token, project.id, { email: uniqueEmail(), role: 'editor' });
      const token = invited.body.data.setPasswordToken as string;
      const short = await setPassword(token, 'short');
      assert.equal(short.status, 400);
      inEnvelope(short);
      await sql`update set_password_tokens set expires_at = ${new Date(Date.now() - 1000).toISOString()}
        where account_id = ${invited.body.data.id}`.execute(ctx.db);
      const expired = await setPassword(token);
      assert.equal(expired.status, 401);
      inEnvelope(expired);
      const unknown = await setPassword('cms_sp_not-a-real-token');
      assert.equal(unknown.status, 401);
      inEnvelope(unknown);
    });

    it('of two uses of one link racing, exactly one sets the password', async () => {
      const { project, admin } = await newProject(ctx.app);
      const email = uniqueEmail('racer');
      const invited = await invite(admin.token, project.id, { email, role: 'editor' });
      const token = invited.body.data.setPasswordToken as string;
      const [a, b] = await Promise.all([
        setPassword(token, 'first racer wins'),
        setPassword(token, 'second racer wins'),
      ]);
      assert.deepEqual([a.status, b.status].sort(), [200, 401]);
      const winner = a.status === 200 ? 'first racer wins' : 'second racer wins';
      await login(ctx.app, email, winner);
    });

    it('tokens are stored hashed and never appear in the activity log or the logs', async () => {
      lines.length = 0;
      const { project, admin } = await newProject(ctx.app);
      const invited = await invite(admin.token, project.id, { email: uniqueEmail(), role: 'editor' });
      const member = await newMember(ctx.app, admin.token, project.id);
      const issued = await reset(admin.token, project.id, member.id);
      const tokens = [invited.body.data.setPasswordToken, issued.body.data.setPasswordToken] as string[];
      const used = await setPassword(tokens[0]!);
      assert.equal(used.status, 200);

      const stored = await ctx.db
        .selectFrom('setPasswordTokens')
        .select('tokenHash')
        .where('accountId', 'in', [invited.body.data.id, member.id])
        .execute();
      assert.equal(stored.length, 1); // the invitation's was consumed; the reset's is left
      assert.match(stored[0]!.tokenHash, /^[0-9a-f]{64}$/);
      for (const token of tokens) assert.ok(!stored[0]!.tokenHash.includes(token));

      const activity = await call(ctx.app, {
        method: 'GET',
        url: '/v1/activity?limit=200',
        headers: asAdmin(admin.token, project.id),
      });
      const records = activity.body.data as { action: string; target: { id: string }; summary: string }[];
      const issuedRecords = records.filter((r) => r.action === 'user.password_reset_issued');
      assert.deepEqual(
        issuedRecords.map((r) => r.target.id).sort(),
        [invited.body.data.id, member.id].sort(),
      );
      assert.ok(
        records.some((r) => r.action === 'user.password_changed' && r.target.id === invited.body.data.id),
      );
      const text = JSON.stringify(activity.body);
      for (const token of tokens) assert.ok(!text.includes(token), 'token in the activity log');
      for (const token of tokens) assert.ok(!text.includes(token.slice('cms_sp_'.length, 20)));

      // Access lines are batched: wait until the last request's line is written.
      for (let waited = 0; !lines.join('').includes('/v1/activity') && waited < 5000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const logs = lines.join('');
      assert.ok(logs.includes('/v1/auth/set-password'), 'the set-password request is logged');
      for (const secret of [...tokens, CHOSEN])
        assert.ok(!logs.includes(secret), 'a token or password in the logs');
    });
  },
  { env: { LOG_LEVEL: 'trace' }, logStream },
);
