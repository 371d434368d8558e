import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { describeEachDb, secondInstance } from '../helpers/app.js';
import { newSite } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { caughtUp, eventually } from '../helpers/instances.js';
import { marketingSite, put, read } from '../helpers/references.js';

/**
 * Coherence of references (contract §13, §17 Operations): a publish, unpublish or deletion of an
 * entry changes the reads, ETags and live streams of every page that refers to it, at once on the
 * instance that acknowledged it and within a second on every other (two instances on one PostgreSQL,
 * as multi-instance.test.ts runs them).
 */

const featuredQuote = async (app: FastifyInstance, key: Record<string, string>) => {
  const res = await read(app, key, '/');
  return (res.body.data[0]?.fields.featured?.fields?.quote as string | null | undefined) ?? null;
};

describeEachDb('references: coherence across instances', (ctx) => {
  const other = secondInstance(ctx);

  it('a publish, unpublish and deletion on A reach the pages that refer to it on B within a second', async () => {
    const b = other();
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site);
    await caughtUp(ctx.app, b, ctx.db);
    assert.equal(await featuredQuote(b, site.key), 'Fast.'); // B has cached the resolved page
    const etagOnB = (await read(b, site.key, '/')).headers.etag as string;
    if (ctx.kind === 'postgres') {
      // Proof that B serves from memory: a write behind every instance's back stays invisible on B.
      await sql`update content_entries set published_fields = '{"quote":"sneaky"}' where id = ${ids.q1}`.execute(
        ctx.db,
      );
      assert.equal(await featuredQuote(b, site.key), 'Fast.');
    }

    await put(ctx.app, site, ids.q1, { quote: 'Faster.', author: ids.ada, seeAlso: ids.q2 });
    assert.equal(await featuredQuote(ctx.app, site.key), 'Faster.'); // at once on A
    assert.equal(
      await eventually(
        () => featuredQuote(b, site.key),
        (q) => q === 'Faster.',
      ),
      'Faster.',
    );
    const revalidated = await read(b, { ...site.key, 'if-none-match': etagOnB }, '/');
    assert.equal(revalidated.status, 200);
    assert.notEqual(revalidated.headers.etag, etagOnB);

    const down = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${ids.q1}/unpublish`,
      headers: site.editing,
    });
    assert.equal(down.status, 200);
    assert.equal(await featuredQuote(ctx.app, site.key), null);
    assert.equal(
      await eventually(
        () => featuredQuote(b, site.key),
        (q) => q === null,
      ),
      null,
    );

    const picksOnB = async () =>
      ((await read(b, site.key, '/')).body.data[0].fields.picks as { id: string }[]).map((p) => p.id);
    assert.deepEqual(await picksOnB(), [ids.q2]);
    const gone = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/content/${ids.q2}?force=true`,
      headers: { ...site.key, ...bearer(site.admin.token) },
    });
    assert.equal(gone.status, 200);
    assert.deepEqual(await eventually(picksOnB, (p) => p.length === 0), []);
  });

  it('a live stream of a page that refers to an entry on B follows its publish made on A', async () => {
    const b = other();
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site);
    await caughtUp(ctx.app, b, ctx.db);
    await b.listen({ port: 0, host: '127.0.0.1' }).catch(() => {}); // SQLite: B is A, maybe listening already
    const { port } = b.server.address() as AddressInfo;
    const token = await call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers: site.editing });
    const preview = { ...site.key, 'x-cms-preview': token.body.data.token as string };
    const drafts: string[] = [];
    const previewRequest = http.get(
      { host: '127.0.0.1', port, path: `/v1/live?pageId=${encodeURIComponent('/')}`, headers: preview },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => drafts.push(chunk));
      },
    );
    previewRequest.on('error', () => {});
    const deep: string[] = [];
    const deepRequest = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/v1/live?pageId=${encodeURIComponent('/')}&depth=2`,
        headers: site.key,
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => deep.push(chunk));
      },
    );
    deepRequest.on('error', () => {});
    const badDepth = await call(b, { method: 'GET', url: `/v1/live?pageId=%2F&depth=4`, headers: site.key });
    assert.equal(badDepth.status, 400);
    const events: string[] = [];
    const request = http.get(
      { host: '127.0.0.1', port, path: `/v1/live?pageId=${encodeURIComponent('/')}`, headers: site.key },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => events.push(chunk));
      },
    );
    request.on('error', () => {});
    try {
      const seen = (text: string) => events.join('').includes(text);
      await eventually(
        async () => seen('Fast.'),
        (v) => v,
        2000,
      );
      assert.ok(seen('"quote":"Fast."'), events.join(''));
      assert.ok(!seen('"name":"Grace"'), 'depth 1: an author of a testimonial is { id }');
      assert.equal(
        await eventually(
          async () => deep.join('').includes('"name":"Grace"'),
          (v) => v,
        ),
        true,
        deep.join(''),
      );
      await put(ctx.app, site, ids.q1, { quote: 'Streamed.', author: ids.ada, seeAlso: ids.q2 });
      assert.equal(
        await eventually(
          async () => seen('"quote":"Streamed."'),
          (v) => v,
        ),
        true,
        events.join(''),
      );
      // A preview stream follows the referenced entry's working copy: a draft save reaches it, not visitors.
      await put(ctx.app, site, ids.q1, { quote: 'Draft only.' }, true);
      assert.equal(
        await eventually(
          async () => drafts.join('').includes('"quote":"Draft only."'),
          (v) => v,
        ),
        true,
        drafts.join(''),
      );
      assert.ok(!events.join('').includes('Draft only.'));
    } finally {
      request.destroy();
      previewRequest.destroy();
      deepRequest.destroy();
    }
  });
});
