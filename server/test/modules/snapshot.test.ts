import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import canonicalize from 'canonicalize';
import type { FastifyInstance } from 'fastify';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, patchEntry, type Site, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

async function snapshot(app: FastifyInstance, site: Site, headers: Record<string, string> = {}) {
  return call(app, { method: 'GET', url: '/v1/snapshot', headers: { ...site.key, ...headers } });
}

/** Publishes `pages` ({ pageId: { instanceKey: fields } }) in the order given. */
async function publishAll(app: FastifyInstance, site: Site, pages: [string, [string, object][]][]) {
  for (const [pageId, entries] of pages) {
    await sync(
      app,
      site,
      pageId,
      entries.map(([instanceKey]) => ({ componentId: 'Block', instanceKey, fields: [] })),
    );
    const stored = await editorEntries(app, site, pageId);
    for (const [instanceKey, fields] of entries) {
      const entry = stored.find((e) => e.instanceKey === instanceKey)!;
      await patchEntry(app, site, entry.id, { fields, status: 'published' });
    }
  }
}

describeEachDb('snapshot', (ctx) => {
  it('holds published content only, and a version computed from its canonical JSON', async () => {
    const site = await newSite(ctx.app);
    await publishAll(ctx.app, site, [['/', [['hero', { title: 'Hi', n: 1.5 }]]]]);
    await sync(ctx.app, site, '/', [{ componentId: 'Block', instanceKey: 'draft-only', fields: [] }]);
    const res = await snapshot(ctx.app, site);
    assert.equal(res.status, 200);
    const data = res.body.data;
    assert.equal(data.schema, 1);
    assert.equal(data.bakeEnabled, true);
    // Each entry carries its id (contract §17), so a build can resolve references itself.
    const hero = (await editorEntries(ctx.app, site, '/')).find((e) => e.instanceKey === 'hero');
    assert.deepEqual(data.content, {
      '/': [{ id: hero!.id, instanceKey: 'hero', componentId: 'Block', fields: { title: 'Hi', n: 1.5 } }],
    });
    assert.deepEqual([data.objectFields, data.objectCollections, data.objectTypes], [[], [], []]);
    assert.ok(!Number.isNaN(Date.parse(data.generatedAt)));
    const { version, generatedAt: _g, ...rest } = data;
    const expected = `sha256:${createHash('sha256').update(canonicalize(rest)!).digest('hex')}`;
    assert.equal(version, expected);
    assert.equal(res.headers.etag, `"${version}"`);
  });

  it('the same published data gives the same content, whatever the order it was written in', async () => {
    const a = await newSite(ctx.app, 'A');
    const b = await newSite(ctx.app, 'B');
    await publishAll(ctx.app, a, [
      [
        '/',
        [
          ['hero', { title: 'Hi', tags: ['x', 'y'], z: 1, a: 2 }],
          ['body', { text: 'é' }],
        ],
      ],
      ['/about', [['team', { count: 3 }]]],
    ]);
    await publishAll(ctx.app, b, [
      ['/about', [['team', { count: 3 }]]],
      [
        '/',
        [
          ['body', { text: 'é' }],
          ['hero', { a: 2, z: 1, tags: ['x', 'y'], title: 'Hi' }],
        ],
      ],
    ]);
    const [sa, sb] = [await snapshot(ctx.app, a), await snapshot(ctx.app, b)];
    // Entry ids differ between the two projects (contract §17: the snapshot carries them); all else is equal.
    const withoutIds = (content: Record<string, { id: string }[]>) =>
      Object.fromEntries(Object.entries(content).map(([p, es]) => [p, es.map(({ id: _, ...e }) => e)]));
    assert.deepEqual(withoutIds(sa.body.data.content), withoutIds(sb.body.data.content));
    assert.deepEqual(Object.keys(sa.body.data.content), ['/', '/about']);

    // A change gives a new version; undoing it gives the old one back.
    const before = sb.body.data.version;
    const [hero] = (await editorEntries(ctx.app, b, '/')).filter((e) => e.instanceKey === 'hero');
    await patchEntry(ctx.app, b, hero!.id, { fields: { title: 'Changed' }, status: 'published' });
    const changed = await snapshot(ctx.app, b);
    assert.notEqual(changed.body.data.version, before);
    await patchEntry(ctx.app, b, hero!.id, { fields: { title: 'Hi' }, status: 'published' });
    assert.equal((await snapshot(ctx.app, b)).body.data.version, before);
  });

  it('an edited live entry keeps its published fields in the snapshot until republished', async () => {
    const site = await newSite(ctx.app);
    await publishAll(ctx.app, site, [['/', [['hero', { title: 'live' }]]]]);
    const [hero] = await editorEntries(ctx.app, site, '/');
    await patchEntry(ctx.app, site, hero!.id, { fields: { title: 'draft' } });
    const res = await snapshot(ctx.app, site, bearer(site.editor.token));
    assert.equal(res.body.data.content['/'][0].fields.title, 'live');
  });

  it('answers If-None-Match with 304, and 200 once the data changed', async () => {
    const site = await newSite(ctx.app);
    await publishAll(ctx.app, site, [['/', [['hero', { title: 'one' }]]]]);
    const first = await snapshot(ctx.app, site);
    const etag = first.headers.etag as string;
    const same = await snapshot(ctx.app, site, { 'if-none-match': etag });
    assert.equal(same.status, 304);
    assert.equal(same.headers.etag, etag);
    assert.equal(same.body, '');
    const [hero] = await editorEntries(ctx.app, site, '/');
    await call(ctx.app, { method: 'POST', url: `/v1/content/${hero!.id}/unpublish`, headers: site.editing });
    const after = await snapshot(ctx.app, site, { 'if-none-match': etag });
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.data.content, {});
  });

  it('bakeEnabled follows the project setting and changes the version', async () => {
    const site = await newSite(ctx.app);
    const before = await snapshot(ctx.app, site);
    const patch = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/projects/${site.project.id}`,
      headers: bearer(site.admin.token),
      payload: { bakeEnabled: false },
    });
    assert.equal(patch.status, 200);
    const after = await snapshot(ctx.app, site);
    assert.equal(after.body.data.bakeEnabled, false);
    assert.notEqual(after.body.data.version, before.body.data.version);
  });

  it('is kept gzip-compressed: sent as is to clients that accept gzip, decompressed to others', async () => {
    const site = await newSite(ctx.app);
    await publishAll(ctx.app, site, [['/', [['hero', { title: 'x'.repeat(5000) }]]]]);
    const get = (encoding?: string) =>
      ctx.app.inject({
        method: 'GET',
        url: '/v1/snapshot',
        headers: { ...site.key, ...(encoding === undefined ? {} : { 'accept-encoding': encoding }) },
      });
    const plain = await get();
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.vary), /Accept-Encoding/);
    const text = plain.body;
    assert.equal(JSON.parse(text).data.content['/'][0].fields.title.length, 5000);
    for (const accepted of ['gzip', 'gzip, deflate, br', 'br;q=1, *;q=0.5']) {
      const zipped = await get(accepted);
      assert.equal(zipped.headers['content-encoding'], 'gzip', accepted);
      assert.equal(zipped.headers.etag, plain.headers.etag, 'the ETag is the version, either way');
      assert.ok(zipped.rawPayload.length < text.length / 10);
      // The same JSON (generatedAt aside: on PostgreSQL the publish's own notification may arrive
      // between the two reads and have the snapshot built again).
      const { generatedAt: _z, ...unzipped } = JSON.parse(gunzipSync(zipped.rawPayload).toString()).data;
      const { generatedAt: _p, ...sent } = JSON.parse(text).data;
      assert.ok(JSON.stringify(unzipped) === JSON.stringify(sent), 'the same data');
    }
    for (const refused of ['identity', 'gzip;q=0', 'br', '*;q=0.5, gzip;q=0'])
      assert.equal((await get(refused)).headers['content-encoding'], undefined, refused);
  });

  it('needs a key: 401 without one', async () => {
    const res = await call(ctx.app, { method: 'GET', url: '/v1/snapshot' });
    assert.equal(res.status, 401);
  });
});
