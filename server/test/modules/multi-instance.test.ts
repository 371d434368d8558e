import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { describeEachDb } from '../helpers/app.js';
import { heroEntry, newSite, pageUrl, patchEntry, type Site } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { caughtUp, eventually } from '../helpers/instances.js';

const titleOn = async (app: FastifyInstance, site: Site) => {
  const res = await call(app, { method: 'GET', url: pageUrl('/'), headers: site.key });
  return res.status === 200 ? (res.body.data[0]?.fields.title as string | undefined) : `status ${res.status}`;
};

// Two Folio instances on one PostgreSQL database, as behind a load balancer: A is the suite's app,
// B a second app on its own connection pool. Caches on B must follow writes made through A.
describeEachDb('two instances on one database', (ctx) => {
  let b: FastifyInstance;
  let handleB: DatabaseHandle;
  const postgres = () => ctx.kind === 'postgres';

  before(async () => {
    if (!postgres()) return;
    handleB = await openDatabase(ctx.database.config);
    b = await buildApp({ config: ctx.config, database: handleB });
    await b.ready();
  });
  after(async () => {
    await b?.close();
    await handleB?.close();
  });

  it('a publish on A is visible through B within a second', async (t) => {
    if (!postgres()) return t.skip('SQLite runs one instance per file');
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'v1' }, status: 'published' });
    // Else the publish's own notification could reach B after B has cached the page, and drop it.
    await caughtUp(ctx.app, b, ctx.db);
    assert.equal(await titleOn(b, site), 'v1'); // B has now cached the page

    // Proof that B serves from memory: a write behind every instance's back stays invisible on B.
    await sql`update content_entries set published_fields = '{"title":"sneaky"}' where id = ${id}`.execute(
      ctx.db,
    );
    assert.equal(await titleOn(b, site), 'v1');

    await patchEntry(ctx.app, site, id, { fields: { title: 'v2' }, status: 'published' });
    assert.equal(
      await eventually(
        () => titleOn(b, site),
        (t) => t === 'v2',
      ),
      'v2',
    );
  });

  it('a deletion on A leaves the cached page, snapshot and object overlay of B within a second', async (t) => {
    if (!postgres()) return t.skip('SQLite runs one instance per file');
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'live' }, status: 'published' });
    const admin = { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id };
    const saved = await call(ctx.app, {
      method: 'POST',
      url: '/v1/objects/save',
      headers: admin,
      payload: { status: 'published', objects: [{ type: 'product', id: 'p1', fields: { title: 'x' } }] },
    });
    assert.equal(saved.status, 200);
    const onB = async () => {
      const [page, snapshot, objects] = await Promise.all(
        [pageUrl('/'), '/v1/snapshot', '/v1/objects'].map((url) =>
          call(b, { method: 'GET', url, headers: site.key }),
        ),
      );
      return {
        page: page?.body.data.length,
        snapshotPages: Object.keys(snapshot?.body.data.content ?? {}).length,
        snapshotObjects: snapshot?.body.data.objectFields.length,
        objects: objects?.body.data.length,
      };
    };
    assert.deepEqual(await onB(), { page: 1, snapshotPages: 1, snapshotObjects: 1, objects: 1 }); // cached on B

    const entry = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/content/${id}`,
      headers: { ...site.key, ...bearer(site.admin.token) },
    });
    assert.equal(entry.status, 200);
    const object = await call(ctx.app, { method: 'DELETE', url: '/v1/objects/product/p1', headers: admin });
    assert.equal(object.status, 200);
    const gone = { page: 0, snapshotPages: 0, snapshotObjects: 0, objects: 0 };
    assert.deepEqual(await eventually(onB, (v) => JSON.stringify(v) === JSON.stringify(gone)), gone);
  });

  it('rotating the key on A makes the old key fail on B', async (t) => {
    if (!postgres()) return t.skip('SQLite runs one instance per file');
    const site = await newSite(ctx.app);
    await heroEntry(ctx.app, site);
    assert.equal((await call(b, { method: 'GET', url: pageUrl('/'), headers: site.key })).status, 200);
    const rotated = await call(ctx.app, {
      method: 'POST',
      url: `/v1/projects/${site.project.id}/rotate-key`,
      headers: bearer(site.admin.token),
    });
    assert.equal(rotated.status, 200);
    const status = await eventually(
      async () => (await call(b, { method: 'GET', url: pageUrl('/'), headers: site.key })).status,
      (s) => s === 401,
    );
    assert.equal(status, 401);
  });

  it('a preview token ended on A (role change, key rotation) is refused on B at once', async (t) => {
    if (!postgres()) return t.skip('SQLite runs one instance per file');
    const site = await newSite(ctx.app);
    await heroEntry(ctx.app, site);
    const tokenOf = async () => {
      const res = await call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers: site.editing });
      assert.equal(res.status, 201);
      return res.body.data.token as string;
    };
    const readOnB = async (token: string, key = site.key) =>
      (await call(b, { method: 'GET', url: pageUrl('/'), headers: { ...key, 'x-cms-preview': token } }))
        .status;
    const admin = { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id };
    const promoted = await tokenOf();
    assert.equal(await readOnB(promoted), 200);
    const patched = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/users/${site.editor.id}`,
      headers: admin,
      payload: { role: 'admin' },
    });
    assert.equal(patched.status, 200);
    assert.equal(await readOnB(promoted), 401); // no waiting: tokens are looked up on each request
    const rotatedAway = await tokenOf();
    assert.equal(await readOnB(rotatedAway), 200);
    const rotated = await call(ctx.app, {
      method: 'POST',
      url: `/v1/projects/${site.project.id}/rotate-key`,
      headers: bearer(site.admin.token),
    });
    assert.equal(rotated.status, 200);
    assert.equal(await readOnB(rotatedAway, { 'x-cms-key': rotated.body.data.apiKey }), 401);
  });

  it('B drops its caches when its LISTEN connection is lost, then catches up', async (t) => {
    if (!postgres()) return t.skip('SQLite runs one instance per file');
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'before' }, status: 'published' });
    assert.equal(await titleOn(b, site), 'before');
    // Kill every listener of this database (A's and B's); notifications sent meanwhile are lost.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and query like 'LISTEN folio_changes%'`.execute(ctx.db);
    await patchEntry(ctx.app, site, id, { fields: { title: 'after' }, status: 'published' });
    assert.equal(
      await eventually(
        () => titleOn(b, site),
        (t) => t === 'after',
        3000,
      ),
      'after',
    );
    // Listening again: the next publish propagates as usual.
    await patchEntry(ctx.app, site, id, { fields: { title: 'again' }, status: 'published' });
    assert.equal(
      await eventually(
        () => titleOn(b, site),
        (t) => t === 'again',
        3000,
      ),
      'again',
    );
  });
});
