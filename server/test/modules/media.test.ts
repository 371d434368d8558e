import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import sharp from 'sharp';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newMember, newProject } from '../helpers/factories.js';
import { makeImage, multipart, upload } from '../helpers/media.js';

const PUBLIC_URL = 'https://files.example.test';
const MAX_BYTES = 100_000;

/** Every file under `dir`, relative, sorted (empty when the directory does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describeEachDb(
  'media: upload, list, delete',
  (ctx) => {
    const media = () => join(ctx.config.dataDir, 'media');
    const pathOf = (url: string) => url.slice(PUBLIC_URL.length);
    const rows = (projectId: string) =>
      ctx.db.selectFrom('media').selectAll().where('projectId', '=', projectId).execute();
    const events = (projectId: string) =>
      ctx.db
        .selectFrom('events')
        .select(['type', 'data'])
        .where('projectId', '=', projectId)
        .where('type', 'like', 'media.%')
        .orderBy('id')
        .execute();

    it('accepts PNG, JPEG, GIF, WebP and AVIF made from real bytes, with their dimensions', async () => {
      const { project, admin } = await newProject(ctx.app);
      const formats = [
        ['png', 'image/png', 'png'],
        ['jpeg', 'image/jpeg', 'jpg'],
        ['gif', 'image/gif', 'gif'],
        ['webp', 'image/webp', 'webp'],
        ['avif', 'image/avif', 'avif'],
      ] as const;
      for (const [format, mimeType, ext] of formats) {
        const bytes = await makeImage(format, 40, 30);
        // The declared type and name lie on purpose: the bytes decide.
        const res = await upload(ctx.app, admin.token, project.id, {
          data: bytes,
          filename: `photo-${format}.bin`,
          contentType: 'application/octet-stream',
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const record = res.body.data;
        assert.deepEqual(Object.keys(record).sort(), [
          'createdAt',
          'filename',
          'height',
          'id',
          'mimeType',
          'size',
          'url',
          'width',
        ]);
        assert.match(record.id, /^med_[0-9A-Z]{26}$/);
        assert.equal(record.mimeType, mimeType);
        assert.equal(record.filename, `photo-${format}.bin`);
        assert.equal(record.size, bytes.length);
        assert.equal(record.width, 40);
        assert.equal(record.height, 30);
        assert.equal(record.url, `${PUBLIC_URL}/media/${project.id}/${record.id}.${ext}`);
        const stored = join(media(), 'originals', project.id, `${record.id}.${ext}`);
        assert.deepEqual(readFileSync(stored), bytes);
      }
      assert.equal((await rows(project.id)).length, 5);
      const uploaded = await events(project.id);
      assert.equal(uploaded.length, 5);
      assert.ok(uploaded.every((e) => e.type === 'media.uploaded'));
      const data = JSON.parse(uploaded[0]!.data);
      assert.equal(data.projectId, project.id);
      assert.equal(data.media.mimeType, 'image/png');
      assert.deepEqual(filesUnder(join(media(), 'tmp')), [], 'no staging file left');
    });

    it('reports the displayed size of an EXIF-rotated JPEG', async () => {
      const { project, admin } = await newProject(ctx.app);
      const bytes = await sharp(await makeImage('jpeg', 40, 30))
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const res = await upload(ctx.app, admin.token, project.id, { data: bytes, filename: 'r.jpg' });
      assert.equal(res.status, 201);
      assert.deepEqual([res.body.data.width, res.body.data.height], [30, 40]);
    });

    it('refuses a text file named .png, an SVG, and a non-image with 415, storing nothing', async () => {
      const { project, admin } = await newProject(ctx.app);
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
      const cases = [
        { data: 'just some text, not an image', filename: 'notes.png', contentType: 'image/png' },
        { data: svg, filename: 'logo.svg', contentType: 'image/svg+xml' },
        { data: svg, filename: 'logo.png', contentType: 'image/png' },
        { data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), filename: 'doc.png' },
        // PNG magic then garbage: the type sniffs as PNG but no image can be read.
        {
          data: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]),
          filename: 'x.png',
        },
      ];
      for (const file of cases) {
        const res = await upload(ctx.app, admin.token, project.id, file);
        assert.equal(res.status, 415, `${file.filename}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'unsupported_media_type');
      }
      assert.equal((await rows(project.id)).length, 0);
      assert.deepEqual(filesUnder(join(media(), 'originals', project.id)), []);
      assert.deepEqual(filesUnder(join(media(), 'tmp')), []);
      assert.deepEqual(await events(project.id), []);
    });

    it('cuts an upload over CMS_MEDIA_MAX_BYTES off with 413 and leaves no file and no row', async () => {
      const { project, admin } = await newProject(ctx.app);
      const big = await makeImage('png', 220, 220);
      assert.ok(big.length > MAX_BYTES);
      const res = await upload(ctx.app, admin.token, project.id, { data: big, filename: 'big.png' });
      assert.equal(res.status, 413);
      assert.equal(res.body.error.code, 'payload_too_large');
      assert.equal((await rows(project.id)).length, 0);
      assert.deepEqual(filesUnder(join(media(), 'originals', project.id)), []);
      assert.deepEqual(filesUnder(join(media(), 'tmp')), []);
      assert.deepEqual(await events(project.id), []);
    });

    it('answers 413 over a real socket too, while the client is still sending', async () => {
      const { project, admin } = await newProject(ctx.app);
      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const form = new FormData();
      // Several times the limit, so the cut-off happens mid-stream.
      const big = Buffer.concat([await makeImage('png', 220, 220), Buffer.alloc(4 * MAX_BYTES)]);
      form.append('file', new Blob([new Uint8Array(big)], { type: 'image/png' }), 'big.png');
      const res = await fetch(`${address}/v1/media/upload`, {
        method: 'POST',
        headers: { ...bearer(admin.token), 'x-cms-project-id': project.id },
        body: form,
      });
      assert.equal(res.status, 413);
      assert.equal(((await res.json()) as any).error.code, 'payload_too_large');
      assert.equal((await rows(project.id)).length, 0);
      assert.deepEqual(filesUnder(join(media(), 'tmp')), []);
    });

    it('keeps a crafted filename as data only: stored under our own name', async () => {
      const { project, admin } = await newProject(ctx.app);
      const before = filesUnder(ctx.config.dataDir);
      const res = await upload(ctx.app, admin.token, project.id, {
        data: await makeImage('png'),
        filename: '../../etc/passwd',
      });
      assert.equal(res.status, 201);
      const { id, url, filename } = res.body.data;
      assert.equal(filename, 'passwd');
      assert.equal(url, `${PUBLIC_URL}/media/${project.id}/${id}.png`);
      const added = filesUnder(ctx.config.dataDir).filter((f) => !before.includes(f));
      assert.deepEqual(
        added.filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm') && !f.endsWith('.sqlite')),
        [`media/originals/${project.id}/${id}.png`, `media/originals/${project.id}/${id}.png.meta.json`],
      );
      assert.ok(!existsSync(join(ctx.config.dataDir, '..', '..', 'etc', 'passwd.png')));
    });

    it('answers a request that is not multipart, or has no file part, with a clear 4xx', async () => {
      const { project, admin } = await newProject(ctx.app);
      const headers = { ...bearer(admin.token), 'x-cms-project-id': project.id };
      const json = await call(ctx.app, {
        method: 'POST',
        url: '/v1/media/upload',
        headers,
        payload: { a: 1 },
      });
      assert.equal(json.status, 415);
      assert.equal(json.body.error.code, 'unsupported_media_type');
      const raw = await call(ctx.app, {
        method: 'POST',
        url: '/v1/media/upload',
        headers: { ...headers, 'content-type': 'image/png' },
        payload: await makeImage('png'),
      });
      assert.equal(raw.status, 415);
      const body = multipart([{ name: 'picture', filename: 'a.png', data: await makeImage('png') }]);
      const wrongField = await call(ctx.app, {
        method: 'POST',
        url: '/v1/media/upload',
        headers: { ...headers, 'content-type': body.contentType },
        payload: body.payload,
      });
      assert.equal(wrongField.status, 400);
      assert.equal(wrongField.body.error.code, 'validation_failed');
      assert.equal((await rows(project.id)).length, 0);
      // Multipart parsing is registered in the media scope only: elsewhere it is an unknown type.
      const elsewhere = await call(ctx.app, {
        method: 'POST',
        url: '/v1/users',
        headers: { ...headers, 'content-type': body.contentType },
        payload: body.payload,
      });
      assert.equal(elsewhere.status, 415);
    });

    it('lists newest first with cursor pagination, using cdnUrl as the base when set', async () => {
      const { project, admin } = await newProject(ctx.app);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await upload(ctx.app, admin.token, project.id, { data: await makeImage('png') });
        ids.push(res.body.data.id);
      }
      const headers = { ...bearer(admin.token), 'x-cms-project-id': project.id };
      const first = await call(ctx.app, { method: 'GET', url: '/v1/media?limit=2', headers });
      assert.equal(first.status, 200);
      assert.deepEqual(
        first.body.data.map((m: { id: string }) => m.id),
        [ids[2], ids[1]],
      );
      const cursor = first.body.meta.nextCursor;
      const second = await call(ctx.app, {
        method: 'GET',
        url: `/v1/media?limit=2&cursor=${cursor}`,
        headers,
      });
      assert.deepEqual(
        second.body.data.map((m: { id: string }) => m.id),
        [ids[0]],
      );
      assert.equal(second.body.meta, undefined);

      const patched = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload: { cdnUrl: 'https://cdn.example.com/' },
      });
      assert.equal(patched.status, 200);
      const viaCdn = await call(ctx.app, { method: 'GET', url: '/v1/media?limit=1', headers });
      assert.equal(viaCdn.body.data[0].url, `https://cdn.example.com/media/${project.id}/${ids[2]}.png`);
    });

    it('deletes the record, the bytes and the variants; the URL then answers 404', async () => {
      const { project, admin } = await newProject(ctx.app);
      const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
      const created = await upload(ctx.app, editor.token, project.id, { data: await makeImage('png') });
      const { id, url } = created.body.data;
      const variant = await call(ctx.app, { method: 'GET', url: `${pathOf(url)}?w=10` });
      assert.equal(variant.status, 200);
      assert.equal(filesUnder(join(media(), 'variants', project.id, id)).length, 2);

      const headers = { ...bearer(editor.token), 'x-cms-project-id': project.id };
      const del = await call(ctx.app, { method: 'DELETE', url: `/v1/media/${id}`, headers });
      assert.equal(del.status, 200);
      assert.deepEqual(del.body.data, { id, deleted: true });
      assert.equal((await rows(project.id)).length, 0);
      assert.deepEqual(filesUnder(join(media(), 'originals', project.id)), []);
      assert.ok(!existsSync(join(media(), 'variants', project.id, id)));
      assert.equal((await call(ctx.app, { method: 'GET', url: pathOf(url) })).status, 404);
      assert.equal((await call(ctx.app, { method: 'GET', url: `${pathOf(url)}?w=10` })).status, 404);
      assert.deepEqual(
        (await events(project.id)).map((e) => e.type),
        ['media.uploaded', 'media.deleted'],
      );
      const again = await call(ctx.app, { method: 'DELETE', url: `/v1/media/${id}`, headers });
      assert.equal(again.status, 404);
      assert.equal(again.body.error.code, 'not_found');
    });

    it("isolates projects: another project's media is 404 to list, delete and serve", async () => {
      const a = await newProject(ctx.app);
      const b = await newProject(ctx.app);
      const created = await upload(ctx.app, a.admin.token, a.project.id, { data: await makeImage('png') });
      const { id } = created.body.data;
      const asB = { ...bearer(b.admin.token), 'x-cms-project-id': b.project.id };
      const del = await call(ctx.app, { method: 'DELETE', url: `/v1/media/${id}`, headers: asB });
      assert.equal(del.status, 404);
      const list = await call(ctx.app, { method: 'GET', url: '/v1/media', headers: asB });
      assert.deepEqual(list.body.data, []);
      const served = await call(ctx.app, { method: 'GET', url: `/media/${b.project.id}/${id}.png` });
      assert.equal(served.status, 404);
      // B's admin cannot act on A by naming it either.
      const named = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/media/${id}`,
        headers: { ...bearer(b.admin.token), 'x-cms-project-id': a.project.id },
      });
      assert.equal(named.status, 403);
      assert.equal((await rows(a.project.id)).length, 1);
    });

    it('needs a session (401); editors and admins upload and delete, members list', async () => {
      const { project, admin } = await newProject(ctx.app);
      const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
      const anonymous = await upload(ctx.app, null, project.id, { data: await makeImage('png') });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, 'unauthorized');
      for (const [method, url] of [
        ['GET', '/v1/media'],
        ['DELETE', '/v1/media/med_01JD3ZK4Q7M2X8V5B6N9C0R1T2'],
      ] as const) {
        const res = await call(ctx.app, { method, url, headers: { 'x-cms-project-id': project.id } });
        assert.equal(res.status, 401);
      }
      const byEditor = await upload(ctx.app, editor.token, project.id, { data: await makeImage('webp') });
      assert.equal(byEditor.status, 201);
      const byAdmin = await upload(ctx.app, admin.token, project.id, { data: await makeImage('gif') });
      assert.equal(byAdmin.status, 201);
      const list = await call(ctx.app, {
        method: 'GET',
        url: '/v1/media',
        headers: { ...bearer(editor.token), 'x-cms-project-id': project.id },
      });
      assert.equal(list.body.data.length, 2);
      const outsider = await newProject(ctx.app);
      const foreign = await upload(ctx.app, outsider.admin.token, project.id, {
        data: await makeImage('png'),
      });
      assert.equal(foreign.status, 403);
    });
  },
  { env: { CMS_PUBLIC_URL: PUBLIC_URL, CMS_MEDIA_MAX_BYTES: String(MAX_BYTES) } },
);

// Twice: small files held in memory (the default) and read from disk for every request.
for (const [how, cacheBytes] of [
  ['held in memory', String(32 * 1024 * 1024)],
  ['streamed from disk', '0'],
] as const)
  describeEachDb(
    `media: serving and variants, ${how}`,
    (ctx) => {
      let projectId = '';
      let token = '';
      let png: Buffer;
      let path = '';
      let id = '';

      it('serves the bytes with type, nosniff, immutable caching, a strong ETag and the file name', async () => {
        const { project, admin } = await newProject(ctx.app);
        projectId = project.id;
        token = admin.token;
        png = await makeImage('png', 64, 48);
        const res = await upload(ctx.app, token, projectId, { data: png, filename: 'naïve hero 🖼.png' });
        assert.equal(res.status, 201);
        id = res.body.data.id;
        path = new URL(res.body.data.url).pathname;

        const served = await ctx.app.inject({ method: 'GET', url: path });
        assert.equal(served.statusCode, 200);
        assert.deepEqual(served.rawPayload, png);
        const h = served.headers;
        assert.equal(h['content-type'], 'image/png');
        assert.equal(h['x-content-type-options'], 'nosniff');
        assert.equal(h['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(h.etag, `"${createHash('sha256').update(png).digest('hex')}"`);
        assert.equal(h['content-length'], String(png.length));
        assert.equal(h['accept-ranges'], 'bytes');
        assert.equal(h['content-security-policy'], "default-src 'none'; sandbox");
        assert.equal(
          h['content-disposition'],
          `inline; filename="na_ve hero __.png"; filename*=UTF-8''na%C3%AFve%20hero%20%F0%9F%96%BC.png`,
        );
        assert.equal(h['x-request-id'] !== undefined, true);

        const head = await ctx.app.inject({ method: 'HEAD', url: path });
        assert.equal(head.statusCode, 200);
        assert.equal(head.headers['content-length'], String(png.length));
        assert.equal(head.rawPayload.length, 0);
      });

      it('answers If-None-Match with 304', async () => {
        const first = await ctx.app.inject({ method: 'GET', url: path });
        const etag = first.headers.etag as string;
        const again = await ctx.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
        assert.equal(again.statusCode, 304);
        assert.equal(again.rawPayload.length, 0);
        assert.equal(again.headers.etag, etag);
        assert.equal(again.headers['cache-control'], 'public, max-age=31536000, immutable');
        const listed = await ctx.app.inject({
          method: 'GET',
          url: path,
          headers: { 'if-none-match': `"other", W/${etag}` },
        });
        assert.equal(listed.statusCode, 304);
        const stale = await ctx.app.inject({
          method: 'GET',
          url: path,
          headers: { 'if-none-match': '"other"' },
        });
        assert.equal(stale.statusCode, 200);
      });

      it('serves byte ranges (206), refuses unsatisfiable ones (416) and honours If-Range', async () => {
        const size = png.length;
        const part = await ctx.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=0-9' } });
        assert.equal(part.statusCode, 206);
        assert.deepEqual(part.rawPayload, png.subarray(0, 10));
        assert.equal(part.headers['content-range'], `bytes 0-9/${size}`);
        assert.equal(part.headers['content-length'], '10');

        const tail = await ctx.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=-5' } });
        assert.equal(tail.statusCode, 206);
        assert.deepEqual(tail.rawPayload, png.subarray(size - 5));

        const open = await ctx.app.inject({
          method: 'GET',
          url: path,
          headers: { range: `bytes=${size - 3}-` },
        });
        assert.deepEqual(open.rawPayload, png.subarray(size - 3));

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
        assert.equal(changed.rawPayload.length, size);
      });

      it('answers 404 for unknown, malformed or traversing file names', async () => {
        for (const url of [
          `/media/${projectId}/med_01JD3ZK4Q7M2X8V5B6N9C0R1T2.png`,
          `/media/${projectId}/${id}.jpg`,
          `/media/${projectId}/${id}.png.meta.json`,
          `/media/${projectId}/..%2F..%2Fcms.sqlite`,
          `/media/prj_nope/${id}.png`,
          `/media/${projectId}/${id}`,
        ]) {
          const res = await call(ctx.app, { method: 'GET', url });
          assert.equal(res.status, 404, url);
          assert.equal(res.body.error.code, 'not_found');
        }
      });

      it('makes a variant once, caches it on disk and serves it with the same headers', async () => {
        const url = `${path}?w=32&format=webp`;
        const variantDir = join(ctx.config.dataDir, 'media', 'variants', projectId, id);
        // Concurrent first requests share one computation.
        const [a, b, c] = await Promise.all([1, 2, 3].map(() => ctx.app.inject({ method: 'GET', url })));
        for (const res of [a, b, c]) assert.equal(res!.statusCode, 200);
        assert.deepEqual(b!.rawPayload, a!.rawPayload);
        assert.deepEqual(c!.rawPayload, a!.rawPayload);
        assert.equal(a!.headers['content-type'], 'image/webp');
        assert.equal(a!.headers['x-content-type-options'], 'nosniff');
        assert.equal(a!.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(a!.headers.etag, `"${createHash('sha256').update(a!.rawPayload).digest('hex')}"`);
        assert.match(
          a!.headers['content-disposition'] as string,
          /filename\*=UTF-8''na%C3%AFve%20hero%20%F0%9F%96%BC\.webp$/,
        );
        const meta = await sharp(a!.rawPayload).metadata();
        assert.equal(meta.format, 'webp');
        assert.deepEqual([meta.width, meta.height], [32, 24]);

        const files = filesUnder(variantDir);
        assert.deepEqual(files, ['w32-hauto-cover.webp', 'w32-hauto-cover.webp.meta.json']);
        const { mtimeMs } = (await import('node:fs')).statSync(join(variantDir, files[0]!));
        const again = await ctx.app.inject({ method: 'GET', url });
        assert.deepEqual(again.rawPayload, a!.rawPayload);
        assert.equal((await import('node:fs')).statSync(join(variantDir, files[0]!)).mtimeMs, mtimeMs);

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

      it('fits both sides, keeps the original format by default and never enlarges', async () => {
        const contain = await ctx.app.inject({
          method: 'GET',
          url: `${path}?w=20&h=20&fit=contain&format=jpeg`,
        });
        assert.equal(contain.statusCode, 200);
        assert.equal(contain.headers['content-type'], 'image/jpeg');
        const m1 = await sharp(contain.rawPayload).metadata();
        assert.deepEqual([m1.format, m1.width, m1.height], ['jpeg', 20, 20]);

        const same = await ctx.app.inject({ method: 'GET', url: `${path}?h=12` });
        assert.equal(same.headers['content-type'], 'image/png');
        const m2 = await sharp(same.rawPayload).metadata();
        assert.deepEqual([m2.format, m2.width, m2.height], ['png', 16, 12]);

        const big = await ctx.app.inject({ method: 'GET', url: `${path}?w=4096&format=avif` });
        assert.equal(big.statusCode, 200);
        assert.equal(big.headers['content-type'], 'image/avif');
        const m3 = await sharp(big.rawPayload).metadata();
        assert.deepEqual([m3.width, m3.height], [64, 48]);
      });

      it('refuses parameters outside the allow-list with a 400 JSON error', async () => {
        for (const query of [
          'w=0',
          'w=4097',
          'w=abc',
          'w=1.5',
          'h=-3',
          'format=svg',
          'format=gif',
          'fit=stretch',
          'fit=cover',
          'quality=90',
          'w=10&w=20',
        ]) {
          const res = await call(ctx.app, { method: 'GET', url: `${path}?${query}` });
          assert.equal(res.status, 400, query);
          assert.equal(res.body.error.code, 'validation_failed', query);
          assert.match(res.headers['content-type'] as string, /^application\/json/);
        }
      });

      it('answers 404 once the file is gone from the store, though it was just served', async () => {
        // What another instance sharing the directory does when it deletes the media.
        const { project, admin } = await newProject(ctx.app);
        const res = await upload(ctx.app, admin.token, project.id, { data: await makeImage('png', 8, 8) });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const url = new URL(res.body.data.url).pathname;
        assert.equal((await ctx.app.inject({ method: 'GET', url })).statusCode, 200);
        const { rmSync: remove } = await import('node:fs');
        remove(join(ctx.config.dataDir, 'media', 'originals', project.id, url.split('/').at(-1) as string));
        assert.equal((await ctx.app.inject({ method: 'GET', url })).statusCode, 404);
        const revalidated = await ctx.app.inject({ method: 'GET', url, headers: { 'if-none-match': '*' } });
        assert.equal(revalidated.statusCode, 404);
      });

      it('removes stale staging files when the app starts, keeping fresh ones', async () => {
        const { mkdirSync, writeFileSync, utimesSync } = await import('node:fs');
        const { buildApp } = await import('../../src/app.js');
        const staging = join(ctx.config.dataDir, 'media', 'tmp');
        mkdirSync(staging, { recursive: true });
        writeFileSync(join(staging, 'crashed.part'), 'half an upload');
        const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
        utimesSync(join(staging, 'crashed.part'), hourAgo, hourAgo);
        writeFileSync(join(staging, 'in-progress.part'), 'another process is writing this');
        const second = await buildApp({ config: ctx.config, database: ctx.database.handle });
        try {
          assert.deepEqual(filesUnder(staging), ['in-progress.part']);
        } finally {
          await second.close();
        }
      });
    },
    { env: { CMS_PUBLIC_URL: PUBLIC_URL, CMS_MEDIA_CACHE_BYTES: cacheBytes } },
  );
