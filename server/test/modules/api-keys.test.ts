import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/connect.js';
import { sha256Hex } from '../../src/shared/secrets.js';
import { describeEachDb } from '../helpers/app.js';
import {
  bearer,
  call,
  joinProject,
  login,
  newMember,
  newProject,
  PASSWORD,
  uniqueEmail,
} from '../helpers/factories.js';
import { waitFor } from '../helpers/hooks.js';

describeEachDb('secret API keys', (ctx) => {
  // One account ("ada") administers P1 and P2 and is an editor of P3 (administered by "bob").
  const ada = { email: uniqueEmail('ada'), token: '' };
  let p1 = '';
  let p2 = '';
  let p3 = '';
  let bob: Awaited<ReturnType<typeof newProject>>;

  const createProject = async (name: string, email: string) => {
    const res = await call(ctx.app, {
      method: 'POST',
      url: '/v1/projects',
      payload: { name, admin: { email, password: PASSWORD } },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.project.id as string;
  };
  const createKey = (token: string, payload: object) =>
    call(ctx.app, { method: 'POST', url: '/v1/api-keys', headers: bearer(token), payload });
  const readObjects = (key: string, projectId?: string) =>
    call(ctx.app, {
      method: 'GET',
      url: '/v1/objects',
      headers: { ...bearer(key), ...(projectId && { 'x-cms-project-id': projectId }) },
    });

  // One account administering two sites and editing a third.
  before(async () => {
    p1 = await createProject('Site one', ada.email);
    p2 = await createProject('Site two', ada.email);
    ada.token = await login(ctx.app, ada.email);
    bob = await newProject(ctx.app, 'Site three');
    p3 = bob.project.id;
    await joinProject(ctx.app, bob.admin.token, p3, ada, 'editor');
  });

  it('creates a key shown once, stored only as a SHA-256 with a display prefix', async () => {
    const res = await createKey(ada.token, {
      name: 'Sync',
      scope: 'selected',
      projectIds: [p1],
      access: 'write',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const key = res.body.data;
    assert.match(key.key, /^cms_sk_[A-Za-z0-9_-]{43}$/);
    assert.equal(key.prefix, key.key.slice(0, 12));
    assert.deepEqual(key.projectIds, [p1]);
    assert.equal(key.lastUsedAt, null);
    const row = await ctx.db
      .selectFrom('apiKeys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.keyHash, sha256Hex(key.key));
    assert.ok(!Object.values(row).includes(key.key));

    const list = await call(ctx.app, { method: 'GET', url: '/v1/api-keys', headers: bearer(ada.token) });
    assert.equal(list.status, 200);
    const listed = list.body.data.find((k: any) => k.id === key.id);
    assert.deepEqual(Object.keys(listed).sort(), [
      'access',
      'createdAt',
      'id',
      'lastUsedAt',
      'name',
      'prefix',
      'projectIds',
      'scope',
    ]);
    assert.ok(!JSON.stringify(list.body).includes(key.key));
  });

  it('only sites the creator administers can be named (403), and scope and projectIds must agree (400)', async () => {
    let res = await createKey(ada.token, {
      name: 'x',
      scope: 'selected',
      projectIds: [p1, p3],
      access: 'read',
    });
    assert.equal(res.status, 403);
    res = await createKey(ada.token, {
      name: 'x',
      scope: 'selected',
      projectIds: ['prj_unknown'],
      access: 'read',
    });
    assert.equal(res.status, 403);
    res = await createKey(ada.token, { name: 'x', scope: 'selected', access: 'read' });
    assert.equal(res.status, 400);
    res = await createKey(ada.token, { name: 'x', scope: 'all', projectIds: [p1], access: 'read' });
    assert.equal(res.status, 400);
    res = await createKey(ada.token, { name: 'x', scope: 'some', access: 'read' });
    assert.equal(res.status, 400);
    const editorOnly = await newMember(ctx.app, bob.admin.token, p3, 'editor');
    res = await createKey(editorOnly.token, { name: 'x', scope: 'all', access: 'read' });
    assert.equal(res.status, 403);
    res = await createKey(editorOnly.token, {
      name: 'x',
      scope: 'selected',
      projectIds: [p3],
      access: 'read',
    });
    assert.equal(res.status, 403);
    assert.equal(
      (await call(ctx.app, { method: 'GET', url: '/v1/api-keys', headers: bearer(editorOnly.token) })).status,
      403,
    );
  });

  it('scope "all" covers every site the creator administers; several sites need x-cms-project-id', async () => {
    const key = (await createKey(ada.token, { name: 'All', scope: 'all', access: 'read' })).body.data;
    assert.deepEqual(key.projectIds, [p1, p2].sort());
    let res = await readObjects(key.key);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'project_required');
    assert.equal((await readObjects(key.key, p1)).status, 200);
    assert.equal((await readObjects(key.key, p2)).status, 200);
    res = await readObjects(key.key, p3); // ada is only an editor there
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'forbidden');
  });

  it('scope "selected" covers the listed sites only; a single-site key needs no header', async () => {
    const one = (
      await createKey(ada.token, { name: 'One', scope: 'selected', projectIds: [p2], access: 'read' })
    ).body.data;
    assert.equal((await readObjects(one.key)).status, 200);
    assert.equal((await readObjects(one.key, p2)).status, 200);
    assert.equal((await readObjects(one.key, p1)).status, 403);
    // Naming a site outside the key through a publishable key is refused too.
    const other = await call(ctx.app, {
      method: 'GET',
      url: '/v1/objects',
      headers: { ...bearer(one.key), 'x-cms-key': bob.project.apiKey },
    });
    assert.equal(other.status, 403);
    // Two different sites named at once (x-cms-key and x-cms-project-id) is a 400.
    const clash = await call(ctx.app, {
      method: 'GET',
      url: '/v1/objects',
      headers: { ...bearer(one.key), 'x-cms-key': bob.project.apiKey, 'x-cms-project-id': p2 },
    });
    assert.equal(clash.status, 400);
    assert.equal(clash.body.error.code, 'project_required');
  });

  it('read vs write: a read key cannot save (403), a write key can, only on its sites', async () => {
    const read = (await createKey(ada.token, { name: 'R', scope: 'all', access: 'read' })).body.data.key;
    const write = (
      await createKey(ada.token, { name: 'W', scope: 'selected', projectIds: [p1, p2], access: 'write' })
    ).body.data.key;
    const save = (key: string, projectId: string) =>
      call(ctx.app, {
        method: 'POST',
        url: '/v1/objects/save',
        headers: { ...bearer(key), 'x-cms-project-id': projectId },
        payload: {
          status: 'published',
          objects: [{ type: 'page', id: 'home', fields: { title: projectId } }],
        },
      });
    assert.equal((await save(read, p1)).status, 403);
    assert.equal((await save(write, p1)).status, 200);
    assert.equal((await save(write, p2)).status, 200);
    assert.equal((await save(write, p3)).status, 403);
    const noHeader = await call(ctx.app, {
      method: 'POST',
      url: '/v1/objects/save',
      headers: bearer(write),
      payload: { objects: [{ type: 'page', id: 'home' }] },
    });
    assert.equal(noHeader.status, 400);
    // Each site sees its own data only.
    const got = await readObjects(read, p2);
    assert.deepEqual(
      got.body.data.map((o: any) => o.fields.title),
      [p2],
    );
  });

  it('secret keys cannot manage keys, users or projects (403)', async () => {
    const key = (
      await createKey(ada.token, { name: 'W', scope: 'selected', projectIds: [p1], access: 'write' })
    ).body.data.key;
    const attempts = [
      { method: 'GET', url: '/v1/api-keys' },
      { method: 'POST', url: '/v1/api-keys', payload: { name: 'x', scope: 'all', access: 'write' } },
      { method: 'DELETE', url: '/v1/api-keys/key_x' },
      { method: 'GET', url: '/v1/users' },
      {
        method: 'POST',
        url: '/v1/users',
        payload: { email: uniqueEmail(), role: 'admin', password: PASSWORD },
      },
      { method: 'PATCH', url: `/v1/projects/${p1}`, payload: { name: 'Hijacked' } },
      { method: 'POST', url: `/v1/projects/${p1}/rotate-key` },
    ] as const;
    for (const a of attempts) {
      const res = await call(ctx.app, { ...a, headers: { ...bearer(key), 'x-cms-project-id': p1 } });
      assert.equal(res.status, 403, `${a.method} ${a.url}: ${res.status}`);
      assert.equal(res.body.error.code, 'forbidden');
    }
    // Webhook management too, when that module is present.
    const hooks = await call(ctx.app, {
      method: 'GET',
      url: '/v1/webhooks',
      headers: { ...bearer(key), 'x-cms-project-id': p1 },
    });
    assert.ok(hooks.status === 403 || hooks.status === 404, `webhooks: ${hooks.status}`);
  });

  it('an admin demoted to editor loses that site from "all" and "selected" keys at the next request', async () => {
    const all = (await createKey(ada.token, { name: 'All', scope: 'all', access: 'write' })).body.data.key;
    const both = (
      await createKey(ada.token, { name: 'Both', scope: 'selected', projectIds: [p1, p2], access: 'write' })
    ).body.data.key;
    assert.equal((await readObjects(all, p2)).status, 200);
    // A second admin on P2 demotes ada.
    const carol = await newMember(ctx.app, ada.token, p2, 'admin');
    const demote = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/users/${(await call(ctx.app, { method: 'GET', url: '/v1/auth/me', headers: bearer(ada.token) })).body.data.id}`,
      headers: { ...bearer(carol.token), 'x-cms-project-id': p2 },
      payload: { role: 'editor' },
    });
    assert.equal(demote.status, 200, JSON.stringify(demote.body));
    assert.equal((await readObjects(all, p2)).status, 403);
    assert.equal((await readObjects(both, p2)).status, 403);
    // Now each covers one site, so the header becomes optional.
    assert.equal((await readObjects(all)).status, 200);
    assert.equal((await readObjects(both)).status, 200);
    const listed = await call(ctx.app, { method: 'GET', url: '/v1/api-keys', headers: bearer(ada.token) });
    const allKey = listed.body.data.find((k: any) => k.name === 'All' && k.access === 'write');
    assert.deepEqual(allKey.projectIds, [p1]);
  });

  it('revocation takes effect on the very next request, on every instance', async () => {
    const created = (
      await createKey(ada.token, { name: 'Temp', scope: 'selected', projectIds: [p1], access: 'read' })
    ).body.data;
    // A second app instance on the same database, as another server behind the load balancer.
    const database = await openDatabase(ctx.database.config);
    const other = await buildApp({ config: ctx.config, database });
    try {
      const viaOther = () => call(other, { method: 'GET', url: '/v1/objects', headers: bearer(created.key) });
      assert.equal((await viaOther()).status, 200);
      const del = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/api-keys/${created.id}`,
        headers: bearer(ada.token),
      });
      assert.equal(del.status, 200);
      assert.deepEqual(del.body.data, { id: created.id, deleted: true });
      const after = await viaOther();
      assert.equal(after.status, 401);
      assert.equal(after.body.error.code, 'unauthorized');
      assert.equal((await readObjects(created.key)).status, 401);
    } finally {
      await other.close();
      await database.close();
    }
    const list = await call(ctx.app, { method: 'GET', url: '/v1/api-keys', headers: bearer(ada.token) });
    assert.ok(!list.body.data.some((k: any) => k.id === created.id));
    const again = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/api-keys/${created.id}`,
      headers: bearer(ada.token),
    });
    assert.equal(again.status, 404);
  });

  it("another account's key is 404 to delete and absent from its list", async () => {
    const mine = (await createKey(ada.token, { name: 'Mine', scope: 'all', access: 'read' })).body.data;
    const del = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/api-keys/${mine.id}`,
      headers: bearer(bob.admin.token),
    });
    assert.equal(del.status, 404);
    const list = await call(ctx.app, {
      method: 'GET',
      url: '/v1/api-keys',
      headers: bearer(bob.admin.token),
    });
    assert.deepEqual(list.body.data, []);
    assert.equal((await readObjects(mine.key, p1)).status, 200);
  });

  it('an unknown key is 401; lastUsedAt is recorded once, not on every request', async () => {
    assert.equal((await readObjects('cms_sk_notakey', p1)).status, 401);
    const created = (
      await createKey(ada.token, { name: 'Used', scope: 'selected', projectIds: [p1], access: 'read' })
    ).body.data;
    const lastUsed = async () =>
      (
        await ctx.db
          .selectFrom('apiKeys')
          .select('lastUsedAt')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      ).lastUsedAt;
    assert.equal((await readObjects(created.key)).status, 200);
    await ctx.app.settled(); // the write happens after the response
    const first = await lastUsed();
    assert.ok(first, 'lastUsedAt is set after a use');
    // A write from here on would stamp a later time than the first: make sure the clock has moved.
    await waitFor(() => Date.now() > Date.parse(first));
    for (let i = 0; i < 3; i++) assert.equal((await readObjects(created.key)).status, 200);
    await ctx.app.settled();
    assert.equal(await lastUsed(), first);
    const list = await call(ctx.app, { method: 'GET', url: '/v1/api-keys', headers: bearer(ada.token) });
    assert.equal(list.body.data.find((k: any) => k.id === created.id).lastUsedAt, first);
  });
});
