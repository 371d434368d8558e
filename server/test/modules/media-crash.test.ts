import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/connect.js';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';
import { makeImage, upload } from '../helpers/media.js';

/**
 * Media's safety nets. A crash between a committed delete and the removal of its files must not leave the image on
 * disk, and publicly served, forever: the next start finishes the removal.
 */
describeEachDb('media: crash-safe deletion and variant cap', (ctx) => {
  it('a removal interrupted after its commit is finished at the next start', async () => {
    const { project, admin } = await newProject(ctx.app);
    const res = await upload(ctx.app, admin.token, project.id, {
      data: await makeImage('png'),
      filename: 'a.png',
    });
    assert.equal(res.status, 201);
    const media = res.body.data;
    const path = new URL(media.url).pathname;
    const file = join(ctx.config.dataDir, 'media', 'originals', project.id, `${media.id}.png`);
    assert.ok(existsSync(file));

    // The state a crash right after DELETE's commit leaves: no row, a pending removal, the file.
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('media').where('id', '=', media.id).execute();
      await trx
        .insertInto('mediaDeletions')
        .values({
          storageKey: `originals/${project.id}/${media.id}.png`,
          projectId: project.id,
          mediaId: media.id,
          createdAt: new Date().toISOString(),
        })
        .execute();
    });
    assert.equal((await ctx.app.inject({ method: 'GET', url: path })).statusCode, 200, 'orphan still served');

    // The restart: a new app on the same database and data directory.
    const handle = await openDatabase(ctx.database.config);
    const restarted = await buildApp({ config: ctx.config, database: handle });
    try {
      assert.equal((await restarted.inject({ method: 'GET', url: path })).statusCode, 404);
      assert.ok(!existsSync(file), 'the bytes are gone');
      const pending = await ctx.db.selectFrom('mediaDeletions').selectAll().execute();
      assert.deepEqual(pending, []);
    } finally {
      await restarted.close();
      await handle.close();
    }
  });

  it('an image has at most 50 variants; existing ones keep being served', async () => {
    const { project, admin } = await newProject(ctx.app);
    const res = await upload(ctx.app, admin.token, project.id, {
      data: await makeImage('png', 64, 48),
      filename: 'v.png',
    });
    const path = new URL(res.body.data.url).pathname;
    for (let w = 1; w <= 50; w++) {
      const variant = await ctx.app.inject({ method: 'GET', url: `${path}?w=${w}` });
      assert.equal(variant.statusCode, 200, `w=${w}`);
    }
    const refused = await call(ctx.app, { method: 'GET', url: `${path}?w=51` });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'validation_failed');
    assert.equal((await ctx.app.inject({ method: 'GET', url: `${path}?w=7` })).statusCode, 200);
  });

  it('a normal delete leaves no pending removal behind', async () => {
    const { project, admin } = await newProject(ctx.app);
    const res = await upload(ctx.app, admin.token, project.id, {
      data: await makeImage('png'),
      filename: 'b.png',
    });
    const del = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/media/${res.body.data.id}`,
      headers: { ...bearer(admin.token), 'x-cms-project-id': project.id },
    });
    assert.equal(del.status, 200);
    assert.deepEqual(await ctx.db.selectFrom('mediaDeletions').selectAll().execute(), []);
    assert.equal(
      (await ctx.app.inject({ method: 'GET', url: new URL(res.body.data.url).pathname })).statusCode,
      404,
    );
  });
});
