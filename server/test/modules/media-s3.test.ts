import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, get as httpGet, request as httpRequest } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { describeEachDb, testConfig } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';
import { makeImage, upload } from '../helpers/media.js';
import { startS3 } from '../helpers/s3.js';

/**
 * Media on S3-compatible storage (CMS_STORAGE=s3), against a real S3-protocol server started here: the
 * same behaviour as the local store (media.test.ts), with the bytes in the bucket and nothing but
 * staging on the instance's disk.
 */
const s3 = await startS3();
after(() => s3.stop());

const PUBLIC_URL = 'https://files.example.test';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every file under `dir`, relative (empty when the directory does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

// Twice: small objects held in memory (the default: one HEAD per request) and every body a GET.
for (const [how, cacheBytes] of [
  ['held in memory', String(32 * 1024 * 1024)],
  ['every body a GET', '0'],
] as const)
  describeEachDb(
    `media on S3 storage, ${how}`,
    (ctx) => {
      let projectId = '';
      let token = '';
      let png: Buffer;
      let id = '';
      let path = '';
      /** Another app of this suite's, on its own data directory, speaking to an S3 endpoint on `port`. */
      const appOn = (port: number, dataDir: string) =>
        buildApp({
          config: testConfig({
            ...s3.env,
            CMS_S3_ENDPOINT: `http://127.0.0.1:${port}`,
            CMS_DATA_DIR: dataDir,
            CMS_MEDIA_CACHE_BYTES: cacheBytes,
          }),
          database: ctx.database.handle,
        });

      it('stores an upload in the bucket with its type, hash and name as object metadata', async () => {
        const { project, admin } = await newProject(ctx.app);
        projectId = project.id;
        token = admin.token;
        png = await makeImage('png', 64, 48);
        const res = await upload(ctx.app, token, projectId, { data: png, filename: 'naïve hero 🖼.png' });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        id = res.body.data.id;
        assert.equal(res.body.data.url, `${PUBLIC_URL}/media/${projectId}/${id}.png`);
        path = new URL(res.body.data.url).pathname;

        const key = `originals/${projectId}/${id}.png`;
        assert.deepEqual(await s3.keys(`originals/${projectId}/`), [key]);
        const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
        assert.equal(head.ContentType, 'image/png');
        assert.equal(head.ContentLength, png.length);
        assert.deepEqual(head.Metadata, {
          sha256: sha256(png),
          filename: encodeURIComponent('naïve hero 🖼.png'),
        });
        // The instance's disk holds nothing of it: the staging file went with the upload.
        assert.deepEqual(filesUnder(join(ctx.config.dataDir, 'media')), []);
      });

      it('serves the bytes with ETag, 304, HEAD and immutable caching', async () => {
        const served = await ctx.app.inject({ method: 'GET', url: path });
        assert.equal(served.statusCode, 200);
        assert.deepEqual(served.rawPayload, png);
        const h = served.headers;
        assert.equal(h['content-type'], 'image/png');
        assert.equal(h['content-length'], String(png.length));
        assert.equal(h['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(h['x-content-type-options'], 'nosniff');
        assert.equal(h.etag, `"${sha256(png)}"`);
        assert.equal(
          h['content-disposition'],
          `inline; filename="na_ve hero __.png"; filename*=UTF-8''na%C3%AFve%20hero%20%F0%9F%96%BC.png`,
        );
        const again = await ctx.app.inject({
          method: 'GET',
          url: path,
          headers: { 'if-none-match': h.etag as string },
        });
        assert.equal(again.statusCode, 304);
        assert.equal(again.rawPayload.length, 0);
        const head = await ctx.app.inject({ method: 'HEAD', url: path });
        assert.equal(head.statusCode, 200);
        assert.equal(head.headers['content-length'], String(png.length));
        assert.equal(head.rawPayload.length, 0);
      });

      it('serves byte ranges with ranged GETs (206), 416 beyond the end, and honours If-Range', async () => {
        const size = png.length;
        const part = await ctx.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=3-12' } });
        assert.equal(part.statusCode, 206);
        assert.deepEqual(part.rawPayload, png.subarray(3, 13));
        assert.equal(part.headers['content-range'], `bytes 3-12/${size}`);
        const tail = await ctx.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=-5' } });
        assert.deepEqual(tail.rawPayload, png.subarray(size - 5));
        const beyond = await ctx.app.inject({
          method: 'GET',
          url: path,
          headers: { range: `bytes=${size}-` },
        });
        assert.equal(beyond.statusCode, 416);
        assert.equal(beyond.headers['content-range'], `bytes */${size}`);
        const changed = await ctx.app.inject({
          method: 'GET',
          url: path,
          headers: { range: 'bytes=0-9', 'if-range': '"not-the-etag"' },
        });
        assert.equal(changed.statusCode, 200);
        assert.deepEqual(changed.rawPayload, png);
      });

      it('makes a variant once, keeps it in the bucket and serves it like the original', async () => {
        const url = `${path}?w=32&format=webp`;
        const key = `variants/${projectId}/${id}/w32-hauto-cover.webp`;
        const putsOf = () => s3.writes().filter((w) => w.key === key).length;
        const [a, b, c] = await Promise.all([1, 2, 3].map(() => ctx.app.inject({ method: 'GET', url })));
        for (const res of [a, b, c]) assert.equal(res!.statusCode, 200);
        assert.deepEqual(b!.rawPayload, a!.rawPayload);
        assert.deepEqual(c!.rawPayload, a!.rawPayload);
        assert.equal(a!.headers['content-type'], 'image/webp');
        assert.equal(a!.headers.etag, `"${sha256(a!.rawPayload)}"`);
        const meta = await sharp(a!.rawPayload).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 32, 24]);
        assert.deepEqual(await s3.keys(`variants/${projectId}/${id}/`), [key]);
        assert.equal(putsOf(), 1, 'concurrent first requests made it once');

        const again = await ctx.app.inject({ method: 'GET', url });
        assert.deepEqual(again.rawPayload, a!.rawPayload);
        assert.equal(putsOf(), 1, 'the next request read it from the bucket');
        const cached = await ctx.app.inject({
          method: 'GET',
          url,
          headers: { 'if-none-match': a!.headers.etag as string },
        });
        assert.equal(cached.statusCode, 304);
        const ranged = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-3' } });
        assert.equal(ranged.statusCode, 206);
        assert.equal(ranged.rawPayload.toString('latin1'), 'RIFF');
      });

      it('streams a file larger than one part as a multipart upload and serves ranges across parts', async () => {
        // Noise does not compress: a PNG of about 6.3 MB, over the 5 MiB part size.
        const big = await makeImage('png', 1450, 1450);
        assert.ok(big.length > 5 * 1024 * 1024, String(big.length));
        const before = s3.writes().length;
        const res = await upload(ctx.app, token, projectId, { data: big, filename: 'big.png' });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const key = `originals/${projectId}/${res.body.data.id}.png`;
        // s3rver reports a completed multipart upload as a POST, a single PutObject as a PUT.
        assert.deepEqual(s3.writes().slice(before), [{ name: 'ObjectCreated:Post', key }]);

        // Over a real socket: the bucket's body is streamed through to the client.
        const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
        const url = `${address}${new URL(res.body.data.url).pathname}`;
        const served = await fetch(url);
        assert.equal(served.status, 200);
        assert.equal(served.headers.get('content-length'), String(big.length));
        assert.equal(sha256(Buffer.from(await served.arrayBuffer())), sha256(big));
        const boundary = 5 * 1024 * 1024;
        const across = await fetch(url, { headers: { range: `bytes=${boundary - 10}-${boundary + 9}` } });
        assert.equal(across.status, 206);
        assert.deepEqual(Buffer.from(await across.arrayBuffer()), big.subarray(boundary - 10, boundary + 10));
        // A client that hangs up mid-body: its GET on the bucket is dropped with it (else the suite's
        // close would wait on that connection), and the instance goes on serving.
        await new Promise<void>((resolve, reject) => {
          const req = httpGet(url, (res) =>
            res.once('data', () => {
              req.destroy();
              resolve();
            }),
          );
          req.once('error', reject);
        });
        const after = await fetch(url, { headers: { range: 'bytes=0-7' } });
        assert.deepEqual(Buffer.from(await after.arrayBuffer()), big.subarray(0, 8));
      });

      it('puts nothing in the bucket for a refused upload', async () => {
        const before = s3.writes().length;
        const res = await upload(ctx.app, token, projectId, { data: '<svg/>', filename: 'x.png' });
        assert.equal(res.status, 415);
        assert.equal(s3.writes().length, before);
        assert.deepEqual(filesUnder(join(ctx.config.dataDir, 'media')), []);
      });

      it('a store that does not answer is 503 unavailable with Retry-After, leaving no file and no row', async () => {
        // A port nothing listens on: connections are refused.
        const probe = createServer().listen(0, '127.0.0.1');
        await once(probe, 'listening');
        const { port } = probe.address() as AddressInfo;
        await new Promise((r) => probe.close(r));
        const dataDir = mkdtempSync(join(tmpdir(), 'folio-data-'));
        const down = await appOn(port, dataDir);
        try {
          const res = await upload(down, token, projectId, {
            data: await makeImage('png'),
            filename: 'd.png',
          });
          assert.equal(res.status, 503, JSON.stringify(res.body));
          assert.equal(res.body.error.code, 'unavailable');
          assert.equal(res.headers['retry-after'], '2');
          const served = await call(down, { method: 'GET', url: path });
          assert.equal(served.status, 503);
          assert.deepEqual(filesUnder(join(dataDir, 'media')), []);
          const listed = await call(ctx.app, {
            method: 'GET',
            url: '/v1/media',
            headers: { ...bearer(token), 'x-cms-project-id': projectId },
          });
          assert.ok(listed.body.data.every((m: { filename: string }) => m.filename !== 'd.png'));
        } finally {
          await down.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      });

      it("a GET the store fails after its HEAD answers the envelope, without the file's headers", async () => {
        // In front of the bucket: HEADs pass; an object's GET answers `status` (as when it changed or
        // the store faltered between the HEAD and the GET, before the first byte reached the client).
        let status = 503;
        const proxy = createHttpServer((req, res) => {
          if (req.method === 'GET' && req.url?.includes('/originals/')) {
            req.resume();
            res.writeHead(status, { 'content-type': 'application/xml' });
            res.end(
              `<?xml version="1.0"?><Error><Code>${status === 503 ? 'SlowDown' : 'PreconditionFailed'}</Code></Error>`,
            );
            return;
          }
          const target = new URL(s3.env.CMS_S3_ENDPOINT as string);
          const forward = httpRequest(
            {
              host: target.hostname,
              port: target.port,
              method: req.method,
              path: req.url,
              headers: req.headers,
            },
            (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            },
          );
          req.pipe(forward);
        }).listen(0, '127.0.0.1');
        await once(proxy, 'listening');
        const { port } = proxy.address() as AddressInfo;
        const dataDir = mkdtempSync(join(tmpdir(), 'folio-data-'));
        const faltering = await appOn(port, dataDir);
        try {
          for (const [store, answer, code] of [
            [503, 503, 'unavailable'],
            [412, 500, 'internal_error'],
          ] as const) {
            status = store;
            const res = await faltering.inject({ method: 'GET', url: path });
            assert.equal(res.statusCode, answer, res.body);
            assert.match(String(res.headers['content-type']), /^application\/json/);
            assert.equal(res.json().error.code, code);
            assert.equal(res.headers['content-length'], String(res.rawPayload.length));
            for (const name of ['etag', 'content-disposition', 'accept-ranges']) {
              assert.equal(res.headers[name], undefined, name);
            }
            // no-store over the file's caching when its headers were set; none when it failed before them.
            const caching = res.headers['cache-control'];
            assert.ok(
              caching === undefined || caching === 'no-store',
              `never cached as the file: ${caching}`,
            );
            if (cacheBytes === '0') assert.equal(caching, 'no-store');
          }
        } finally {
          await faltering.close();
          await new Promise((r) => proxy.close(r));
          rmSync(dataDir, { recursive: true, force: true });
        }
      });

      it('an object deleted or replaced in the bucket behind its back is a 404 or its new bytes', async () => {
        // What another instance sharing the bucket does. Both after this instance served the object.
        const { project, admin } = await newProject(ctx.app);
        const paths: string[] = [];
        for (const size of [8, 9]) {
          const res = await upload(ctx.app, admin.token, project.id, {
            data: await makeImage('png', size, size),
          });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          paths.push(new URL(res.body.data.url).pathname);
          assert.equal(
            (await ctx.app.inject({ method: 'GET', url: paths.at(-1) as string })).statusCode,
            200,
          );
        }
        const [gone, replaced] = paths.map((p) => `originals/${project.id}/${p.split('/').at(-1)}`);
        await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: gone }));
        assert.equal((await ctx.app.inject({ method: 'GET', url: paths[0] as string })).statusCode, 404);
        const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: replaced }));
        const other = await makeImage('png', 10, 10);
        await s3.client.send(
          new PutObjectCommand({
            Bucket: s3.bucket,
            Key: replaced,
            Body: other,
            ContentType: 'image/png',
            Metadata: head.Metadata,
          }),
        );
        const served = await ctx.app.inject({ method: 'GET', url: paths[1] as string });
        assert.equal(served.statusCode, 200);
        assert.deepEqual(served.rawPayload, other);
      });

      it('a delete removes the original and its variants from the bucket; both URLs answer 404', async () => {
        const variant = `${path}?w=32&format=webp`;
        assert.equal((await ctx.app.inject({ method: 'GET', url: variant })).statusCode, 200);
        const del = await call(ctx.app, {
          method: 'DELETE',
          url: `/v1/media/${id}`,
          headers: { ...bearer(token), 'x-cms-project-id': projectId },
        });
        assert.equal(del.status, 200);
        assert.deepEqual(await s3.keys(`originals/${projectId}/${id}`), []);
        assert.deepEqual(await s3.keys(`variants/${projectId}/${id}/`), []);
        for (const url of [path, variant]) {
          assert.equal((await ctx.app.inject({ method: 'GET', url })).statusCode, 404, url);
        }
        assert.deepEqual(await ctx.db.selectFrom('mediaDeletions').selectAll().execute(), []);
      });

      it('a removal interrupted after its commit is finished from the bucket at the next start', async () => {
        const res = await upload(ctx.app, token, projectId, {
          data: await makeImage('png'),
          filename: 'c.png',
        });
        const media = res.body.data;
        const served = new URL(media.url).pathname;
        assert.equal((await ctx.app.inject({ method: 'GET', url: `${served}?w=8` })).statusCode, 200);
        // The state a crash right after DELETE's commit leaves: no row, a pending removal, the objects.
        await ctx.db.transaction().execute(async (trx) => {
          await trx.deleteFrom('media').where('id', '=', media.id).execute();
          await trx
            .insertInto('mediaDeletions')
            .values({
              storageKey: `originals/${projectId}/${media.id}.png`,
              projectId,
              mediaId: media.id,
              createdAt: new Date().toISOString(),
            })
            .execute();
        });
        assert.equal(
          (await ctx.app.inject({ method: 'GET', url: served })).statusCode,
          200,
          'orphan still served',
        );

        const handle = await openDatabase(ctx.database.config);
        const restarted = await buildApp({ config: ctx.config, database: handle });
        try {
          await restarted.ready();
          assert.equal((await restarted.inject({ method: 'GET', url: served })).statusCode, 404);
          assert.deepEqual(await s3.keys(`originals/${projectId}/${media.id}`), []);
          assert.deepEqual(await s3.keys(`variants/${projectId}/${media.id}/`), []);
          assert.deepEqual(await ctx.db.selectFrom('mediaDeletions').selectAll().execute(), []);
        } finally {
          await restarted.close();
          await handle.close();
        }
      });
    },
    { env: { ...s3.env, CMS_PUBLIC_URL: PUBLIC_URL, CMS_MEDIA_CACHE_BYTES: cacheBytes } },
  );

/**
 * Two instances behind one load balancer: one PostgreSQL database, one bucket, each its own data
 * directory and address. Neither sets CMS_PUBLIC_URL, so each one's own base (http://HOST:PORT)
 * differs: a URL must still be listed the same through both.
 */
describeEachDb(
  'media on S3: two instances on one database and one bucket',
  (ctx) => {
    let b: FastifyInstance;
    let handleB: DatabaseHandle;
    let dirB = '';
    const postgres = () => ctx.kind === 'postgres';

    before(async () => {
      if (!postgres()) return;
      dirB = mkdtempSync(join(tmpdir(), 'folio-data-b-'));
      handleB = await openDatabase(ctx.database.config);
      b = await buildApp({
        config: testConfig({ ...s3.env, CMS_DATA_DIR: dirB, PORT: '3102' }),
        database: handleB,
      });
      await b.ready();
    });
    after(async () => {
      await b?.close();
      await handleB?.close();
      if (dirB) rmSync(dirB, { recursive: true, force: true });
    });

    const listed = async (app: FastifyInstance, site: { token: string; projectId: string }) => {
      const res = await call(app, {
        method: 'GET',
        url: '/v1/media',
        headers: { ...bearer(site.token), 'x-cms-project-id': site.projectId },
      });
      assert.equal(res.status, 200);
      return Object.fromEntries(res.body.data.map((m: { id: string; url: string }) => [m.id, m.url]));
    };

    it('an upload through A is served by B byte for byte and listed under one URL by both', async (t) => {
      if (!postgres()) return t.skip('SQLite runs one instance per file');
      const { project, admin } = await newProject(ctx.app);
      const site = { token: admin.token, projectId: project.id };
      const png = await makeImage('png', 50, 40);
      const viaA = await upload(ctx.app, admin.token, project.id, { data: png });
      assert.equal(viaA.status, 201);
      const a = viaA.body.data;
      assert.equal(a.url, `http://127.0.0.1:3101/media/${project.id}/${a.id}.png`);

      const served = await b.inject({ method: 'GET', url: new URL(a.url).pathname });
      assert.equal(served.statusCode, 200);
      assert.deepEqual(served.rawPayload, png);
      assert.equal(served.headers.etag, `"${sha256(png)}"`);
      assert.deepEqual(filesUnder(join(dirB, 'media')), []);

      const viaB = await upload(b, admin.token, project.id, { data: await makeImage('webp') });
      const bMedia = viaB.body.data;
      assert.equal(bMedia.url, `http://127.0.0.1:3102/media/${project.id}/${bMedia.id}.webp`);
      const expected = { [a.id]: a.url, [bMedia.id]: bMedia.url };
      assert.deepEqual(await listed(ctx.app, site), expected);
      assert.deepEqual(await listed(b, site), expected);

      // CMS_PUBLIC_URL (the same on every instance) is the base wherever it is set.
      const handleC = await openDatabase(ctx.database.config);
      const c = await buildApp({
        config: testConfig({ ...s3.env, PORT: '3103', CMS_PUBLIC_URL: PUBLIC_URL }),
        database: handleC,
      });
      try {
        assert.deepEqual(await listed(c, site), {
          [a.id]: `${PUBLIC_URL}/media/${project.id}/${a.id}.png`,
          [bMedia.id]: `${PUBLIC_URL}/media/${project.id}/${bMedia.id}.webp`,
        });
      } finally {
        await c.close();
        await handleC.close();
      }
    });

    it("a project's cdnUrl set through A becomes the base of B's listing", async (t) => {
      if (!postgres()) return t.skip('SQLite runs one instance per file');
      const { project, admin } = await newProject(ctx.app);
      const site = { token: admin.token, projectId: project.id };
      const { id } = (await upload(ctx.app, admin.token, project.id, { data: await makeImage('png') })).body
        .data;
      assert.deepEqual(await listed(b, site), {
        [id]: `http://127.0.0.1:3101/media/${project.id}/${id}.png`,
      });
      const patched = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload: { cdnUrl: 'https://cdn.example.com' },
      });
      assert.equal(patched.status, 200);
      const want = { [id]: `https://cdn.example.com/media/${project.id}/${id}.png` };
      const deadline = Date.now() + 2000;
      let onB = await listed(b, site);
      while (JSON.stringify(onB) !== JSON.stringify(want) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        onB = await listed(b, site);
      }
      assert.deepEqual(onB, want);
      assert.deepEqual(await listed(ctx.app, site), want);
    });

    it('a variant made through A is found in the bucket by B, not made again', async (t) => {
      if (!postgres()) return t.skip('SQLite runs one instance per file');
      const { project, admin } = await newProject(ctx.app);
      const media = (await upload(ctx.app, admin.token, project.id, { data: await makeImage('png') })).body
        .data;
      const url = `${new URL(media.url).pathname}?w=20&format=avif`;
      const key = `variants/${project.id}/${media.id}/w20-hauto-cover.avif`;
      const putsOf = () => s3.writes().filter((w) => w.key === key).length;
      const onA = await ctx.app.inject({ method: 'GET', url });
      assert.equal(onA.statusCode, 200);
      assert.equal(putsOf(), 1);
      const onB = await b.inject({ method: 'GET', url });
      assert.equal(onB.statusCode, 200);
      assert.deepEqual(onB.rawPayload, onA.rawPayload);
      assert.equal(onB.headers.etag, onA.headers.etag);
      assert.equal(putsOf(), 1, 'B read the variant from the bucket');
    });

    it('a delete through B is a 404 on A and on B, for the original and a variant A had served', async (t) => {
      if (!postgres()) return t.skip('SQLite runs one instance per file');
      const { project, admin } = await newProject(ctx.app);
      const media = (await upload(ctx.app, admin.token, project.id, { data: await makeImage('png') })).body
        .data;
      const original = new URL(media.url).pathname;
      const variant = `${original}?w=16`;
      const etags: Record<string, string> = {};
      for (const url of [original, variant]) {
        const res = await ctx.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 200, url);
        etags[url] = res.headers.etag as string;
      }
      assert.equal((await b.inject({ method: 'GET', url: variant })).statusCode, 200);

      const del = await call(b, {
        method: 'DELETE',
        url: `/v1/media/${media.id}`,
        headers: { ...bearer(admin.token), 'x-cms-project-id': project.id },
      });
      assert.equal(del.status, 200);
      for (const app of [ctx.app, b]) {
        for (const url of [original, variant]) {
          assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url);
          // Not a 304 from anything remembered: the file is gone.
          const revalidated = await app.inject({
            method: 'GET',
            url,
            headers: { 'if-none-match': etags[url] as string },
          });
          assert.equal(revalidated.statusCode, 404, `${url} revalidated`);
          assert.equal((await app.inject({ method: 'HEAD', url })).statusCode, 404, `HEAD ${url}`);
        }
      }
      assert.deepEqual(await s3.keys(`originals/${project.id}/${media.id}`), []);
      assert.deepEqual(await s3.keys(`variants/${project.id}/${media.id}/`), []);
    });
  },
  { env: { ...s3.env, PORT: '3101' } },
);
