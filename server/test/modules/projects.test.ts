import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { openSecretBox } from '../../src/shared/secret-keys.js';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, login, newMember, newProject, PASSWORD, uniqueEmail } from '../helpers/factories.js';

const WHSEC = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describeEachDb('projects', (ctx) => {
  it('creating a project needs no auth and returns the project, its key and its admin (201)', async () => {
    const email = uniqueEmail();
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'Docs site', admin: { email, password: PASSWORD } },
    });
    assert.equal(res.status, 201);
    const { project, admin } = res.body.data;
    assert.match(project.id, /^prj_[0-9A-Z]{26}$/);
    assert.match(project.apiKey, /^cms_pk_/);
    assert.deepEqual(
      { ...project, id: 'x', apiKey: 'x', createdAt: 'x', updatedAt: 'x' },
      {
        id: 'x',
        name: 'Docs site',
        apiKey: 'x',
        domains: [],
        cdnUrl: null,
        previewUrl: null,
        deployHooks: [],
        bakeEnabled: true,
        definitionSync: 'additive',
        locales: null, // contract §14: one language until an admin sets them
        createdAt: 'x',
        updatedAt: 'x',
      },
    );
    assert.deepEqual(admin, { id: admin.id, email, role: 'admin' });
    assert.match(admin.id, /^usr_/);
  });

  it('an existing email adds the project to that account with the right password, else 409', async () => {
    const { admin } = await newProject(ctx.app, 'First');
    const second = await call(ctx.app, {
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'Second', admin: { email: admin.email, password: PASSWORD } },
    });
    assert.equal(second.status, 201);
    assert.equal(second.body.data.admin.id, admin.id);
    const wrong = await call(ctx.app, {
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'Third', admin: { email: admin.email, password: 'someone else guessing' } },
    });
    assert.equal(wrong.status, 409);
    assert.equal(wrong.body.error.code, 'conflict');
    // Issue 44: in login's words, never that the account exists (login does not say it either).
    const login = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: admin.email, password: 'someone else guessing' },
    });
    const unknown = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'nobody-here@example.com', password: 'someone else guessing' },
    });
    assert.equal(wrong.body.error.message, login.body.error.message);
    assert.equal(unknown.body.error.message, login.body.error.message);
    assert.deepEqual(Object.keys(wrong.body.error).sort(), ['code', 'message']);
    assert.doesNotMatch(JSON.stringify(wrong.body), /exist|account/i);
    assert.ok(!JSON.stringify(wrong.body).includes(admin.email));

    const list = await call(ctx.app, { method: 'GET', url: '/v1/projects', headers: bearer(admin.token) });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((p: { name: string; role: string }) => [p.name, p.role]),
      [
        ['First', 'admin'],
        ['Second', 'admin'],
      ],
    );
  });

  it('creation validates its body with details per path', async () => {
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/projects',
      payload: { name: '', admin: { email: 'not-an-email', password: 'short' } },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'validation_failed');
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    assert.ok(paths.includes('body.name'));
    assert.ok(paths.includes('body.admin.email'));
    assert.ok(paths.includes('body.admin.password'));
  });

  it('GET /v1/projects/:id: members see it; others get 403; no session 401', async () => {
    const a = await newProject(ctx.app);
    const b = await newProject(ctx.app);
    const editor = await newMember(ctx.app, a.admin.token, a.project.id, 'editor');
    const ok = await call(ctx.app, {
      method: 'GET',
      url: `/v1/projects/${a.project.id}`,
      headers: bearer(editor.token),
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.id, a.project.id);
    const other = await call(ctx.app, {
      method: 'GET',
      url: `/v1/projects/${a.project.id}`,
      headers: bearer(b.admin.token),
    });
    assert.equal(other.status, 403);
    assert.equal(other.body.error.code, 'forbidden');
    const none = await call(ctx.app, { method: 'GET', url: `/v1/projects/${a.project.id}` });
    assert.equal(none.status, 401);
  });

  it('PATCH updates name, domains, cdnUrl and bakeEnabled (admin only)', async () => {
    const { project, admin } = await newProject(ctx.app);
    const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
    const patch = {
      name: 'Renamed',
      domains: ['Example.com', 'localhost:5173'],
      cdnUrl: 'https://cdn.example.com/',
      bakeEnabled: false,
    };
    const denied = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/projects/${project.id}`,
      headers: bearer(editor.token),
      payload: patch,
    });
    assert.equal(denied.status, 403);
    const res = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/projects/${project.id}`,
      headers: bearer(admin.token),
      payload: patch,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.name, 'Renamed');
    assert.deepEqual(res.body.data.domains, ['example.com', 'localhost:5173']);
    assert.equal(res.body.data.cdnUrl, 'https://cdn.example.com');
    assert.equal(res.body.data.bakeEnabled, false);
  });

  it('PATCH rejects bad domains, URLs, unknown fields and an empty body', async () => {
    const { project, admin } = await newProject(ctx.app);
    for (const payload of [
      { domains: ['https://example.com'] },
      { cdnUrl: 'ftp://files.example.com' },
      { colour: 'blue' },
      {},
      { deployHooks: [{ id: 'x', type: 'generic', url: 'javascript:alert(1)' }] },
      { deployHooks: [{ id: 'x', type: 'vercel', url: 'https://example.com/hook' }] },
    ]) {
      const res = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload,
      });
      assert.equal(res.status, 400, JSON.stringify(payload));
      assert.equal(res.body.error.code, 'validation_failed');
    }
  });

  it('deploy hooks: secrets are write-only, kept when omitted, cleared with null; duplicate ids 409', async () => {
    const { project, admin } = await newProject(ctx.app);
    const patch = (payload: object) =>
      call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload,
      });
    const set = await patch({
      deployHooks: [
        { id: 'netlify', type: 'generic', url: 'https://api.netlify.com/build_hooks/abc', secret: WHSEC },
        {
          id: 'gh',
          type: 'github_repository_dispatch',
          url: 'https://api.github.com/repos/o/r/dispatches',
          secret: 'ghp_token',
        },
      ],
    });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body.data.deployHooks, [
      { id: 'netlify', type: 'generic', url: 'https://api.netlify.com/build_hooks/abc', hasSecret: true },
      {
        id: 'gh',
        type: 'github_repository_dispatch',
        url: 'https://api.github.com/repos/o/r/dispatches',
        hasSecret: true,
      },
    ]);
    assert.ok(!JSON.stringify(set.body).includes('ghp_token'));
    assert.ok(!JSON.stringify(set.body).includes(WHSEC));

    const kept = await patch({
      deployHooks: [
        { id: 'gh', type: 'github_repository_dispatch', url: 'https://api.github.com/repos/o/r2/dispatches' },
        { id: 'netlify', type: 'generic', url: 'https://api.netlify.com/build_hooks/abc', secret: null },
      ],
    });
    assert.equal(kept.status, 200);
    assert.deepEqual(
      kept.body.data.deployHooks.map((h: { id: string; hasSecret: boolean }) => [h.id, h.hasSecret]),
      [
        ['gh', true],
        ['netlify', false],
      ],
    );
    const stored = await ctx.db
      .selectFrom('deployHooks')
      .selectAll()
      .where('projectId', '=', project.id)
      .execute();
    // Kept as it was: sealed at rest, never in clear (test/modules/secrets-at-rest.test.ts).
    const sealed = stored.find((h) => h.id === 'gh')?.secret ?? '';
    assert.match(sealed, /^enc1:/);
    assert.equal(openSecretBox(ctx.config).box.open(sealed), 'ghp_token');

    const dup = await patch({
      deployHooks: [
        { id: 'a', type: 'generic', url: 'https://example.com/1' },
        { id: 'a', type: 'generic', url: 'https://example.com/2' },
      ],
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error.code, 'conflict');
  });

  it('a generic hook secret must be a whsec_ secret; a GitHub hook needs a token', async () => {
    const { project, admin } = await newProject(ctx.app);
    const patch = (payload: object) =>
      call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload,
      });
    const bad = await patch({
      deployHooks: [{ id: 'n', type: 'generic', url: 'https://example.com/h', secret: 'plain' }],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'body.deployHooks[0].secret');
    const gh = await patch({
      deployHooks: [{ id: 'g', type: 'github_repository_dispatch', url: 'https://api.github.com/x' }],
    });
    assert.equal(gh.status, 400);
    const before = await call(ctx.app, {
      method: 'GET',
      url: `/v1/projects/${project.id}`,
      headers: bearer(admin.token),
    });
    assert.deepEqual(before.body.data.deployHooks, [], 'a rejected patch writes nothing');
  });

  it('rotate-key issues a new publishable key; the old one stops working', async () => {
    const { project, admin } = await newProject(ctx.app);
    const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
    const denied = await call(ctx.app, {
      method: 'POST',
      url: `/v1/projects/${project.id}/rotate-key`,
      headers: bearer(editor.token),
    });
    assert.equal(denied.status, 403);
    // The old key resolves the project before rotation...
    const usersWithKey = (key: string) =>
      call(ctx.app, {
        method: 'GET',
        url: '/v1/users',
        headers: { ...bearer(admin.token), 'x-cms-key': key },
      });
    assert.equal((await usersWithKey(project.apiKey)).status, 200);
    const res = await call(ctx.app, {
      method: 'POST',
      url: `/v1/projects/${project.id}/rotate-key`,
      headers: bearer(admin.token),
    });
    assert.equal(res.status, 200);
    assert.notEqual(res.body.data.apiKey, project.apiKey);
    assert.match(res.body.data.apiKey, /^cms_pk_/);
    // ...and is refused after.
    const old = await usersWithKey(project.apiKey);
    assert.equal(old.status, 401);
    assert.equal(old.body.error.code, 'unauthorized');
    assert.equal((await usersWithKey(res.body.data.apiKey)).status, 200);
  });

  it('a session in several projects must name one; a key of A with a header naming B is 400', async () => {
    const a = await newProject(ctx.app);
    const b = await call(ctx.app, {
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'B', admin: { email: a.admin.email, password: PASSWORD } },
    });
    const token = await login(ctx.app, a.admin.email);
    const ambiguous = await call(ctx.app, { method: 'GET', url: '/v1/users', headers: bearer(token) });
    assert.equal(ambiguous.status, 400);
    assert.equal(ambiguous.body.error.code, 'project_required');
    const named = await call(ctx.app, {
      method: 'GET',
      url: '/v1/users',
      headers: { ...bearer(token), 'x-cms-project-id': b.body.data.project.id },
    });
    assert.equal(named.status, 200);
    const disagree = await call(ctx.app, {
      method: 'GET',
      url: '/v1/users',
      headers: {
        ...bearer(token),
        'x-cms-key': a.project.apiKey,
        'x-cms-project-id': b.body.data.project.id,
      },
    });
    assert.equal(disagree.status, 400);
    assert.equal(disagree.body.error.code, 'project_required');
  });
});

describeEachDb(
  'project creation limit',
  (ctx) => {
    // A second instance on the same database (PostgreSQL), or the same file (SQLite): the limit is
    // counted in the database, so requests through either count against one limit.
    let second: FastifyInstance;
    let secondDb: DatabaseHandle;
    before(async () => {
      secondDb = await openDatabase(ctx.database.config);
      second = await buildApp({ config: ctx.config, database: secondDb });
      await second.ready();
    });
    after(async () => {
      await second.close();
      await secondDb.close();
    });

    const create = (app: FastifyInstance, remoteAddress: string, email = uniqueEmail()) =>
      call(app, {
        method: 'POST',
        url: '/v1/projects',
        remoteAddress,
        payload: { name: 'Spam', admin: { email, password: PASSWORD } },
      });

    it('creating projects is limited per client address across instances (429 with Retry-After)', async () => {
      assert.equal((await create(ctx.app, '203.0.113.50')).status, 201);
      assert.equal((await create(second, '203.0.113.50')).status, 201);
      assert.equal((await create(ctx.app, '203.0.113.50')).status, 201);
      for (const app of [second, ctx.app]) {
        const limited = await create(app, '203.0.113.50');
        assert.equal(limited.status, 429);
        assert.equal(limited.body.data, null);
        assert.equal(limited.body.error.code, 'rate_limited');
        assert.equal(limited.body.error.message, 'Too many projects created from this address.');
        const retryAfter = Number(limited.headers['retry-after']);
        assert.ok(retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
        assert.equal(limited.body.error.details.retryAfterSeconds, retryAfter);
      }
      assert.equal((await create(second, '203.0.113.51')).status, 201, 'other addresses are not affected');
    });

    it('a refused sign-up with an existing email counts too (the limit bounds password guesses)', async () => {
      const owner = uniqueEmail();
      assert.equal((await create(ctx.app, '203.0.113.60', owner)).status, 201);
      const guess = (app: FastifyInstance) =>
        call(app, {
          method: 'POST',
          url: '/v1/projects',
          remoteAddress: '203.0.113.60',
          payload: { name: 'Guess', admin: { email: owner, password: 'not the password' } },
        });
      assert.equal((await guess(second)).status, 409);
      assert.equal((await guess(ctx.app)).status, 409);
      assert.equal((await guess(second)).status, 429);
    });

    it('an invalid body is a 400 and is not counted', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await call(ctx.app, {
          method: 'POST',
          url: '/v1/projects',
          remoteAddress: '203.0.113.70',
          payload: { name: 'Bad' },
        });
        assert.equal(res.status, 400);
      }
      assert.equal((await create(second, '203.0.113.70')).status, 201);
    });
  },
  { env: { CMS_PROJECT_CREATE_LIMIT_PER_HOUR: '3' } },
);
