import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';

/** The published object view is served from memory with an ETag; published saves refresh it everywhere. */
describeEachDb('objects published view cache', (ctx) => {
  let b: FastifyInstance | undefined;
  let handleB: DatabaseHandle | undefined;
  before(async () => {
    if (ctx.kind !== 'postgres') return;
    handleB = await openDatabase(ctx.database.config);
    b = await buildApp({ config: ctx.config, database: handleB });
    await b.ready();
  });
  after(async () => {
    await b?.close();
    await handleB?.close();
  });

  async function setup() {
    const { project, admin } = await newProject(ctx.app);
    const headers = { ...bearer(admin.token), 'x-cms-project-id': project.id };
    const save = (title: string, status?: 'published') =>
      call(ctx.app, {
        method: 'POST',
        url: '/v1/objects/save',
        headers,
        payload: { ...(status && { status }), objects: [{ type: 'page', id: 'home', fields: { title } }] },
      });
    const read = (app: FastifyInstance, extra: Record<string, string> = {}) =>
      call(app, {
        method: 'GET',
        url: '/v1/objects?types=page',
        headers: { 'x-cms-key': project.apiKey, ...extra },
      });
    return { save, read };
  }

  it('carries an ETag and answers 304; a draft save leaves it, a published save changes it', async () => {
    const { save, read } = await setup();
    assert.equal((await save('v1', 'published')).status, 200);
    const first = await read(ctx.app);
    assert.equal(first.body.data[0].fields.title, 'v1');
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]{27}"$/);
    assert.equal((await read(ctx.app, { 'if-none-match': etag })).status, 304);

    assert.equal((await save('draft only')).status, 200);
    assert.equal(
      (await read(ctx.app, { 'if-none-match': etag })).status,
      304,
      'drafts do not touch the published view',
    );

    assert.equal((await save('v2', 'published')).status, 200);
    const after = await read(ctx.app, { 'if-none-match': etag });
    assert.equal(after.status, 200);
    assert.equal(after.body.data[0].fields.title, 'v2');
  });

  it('a published save through one instance refreshes the other (PostgreSQL)', async (t) => {
    if (!b) return t.skip('SQLite runs one instance per file');
    const { save, read } = await setup();
    await save('v1', 'published');
    assert.equal((await read(b)).body.data[0].fields.title, 'v1'); // B caches it
    await save('v2', 'published');
    const deadline = Date.now() + 1000;
    let title = '';
    while (Date.now() < deadline) {
      title = (await read(b)).body.data[0].fields.title;
      if (title === 'v2') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(title, 'v2');
  });
});
