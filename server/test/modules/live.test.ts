import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { sha256Hex } from '../../src/shared/secrets.js';
import { describeEachDb } from '../helpers/app.js';
import {
  editorEntries,
  heroEntry,
  newSite,
  patchEntry,
  type Site,
  sync,
  visitorEntries,
} from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { type LiveClient, openLive } from '../helpers/sse.js';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});

const MAX_STREAMS = 3;

describeEachDb(
  'live updates',
  (ctx) => {
    let base = '';
    const clients: LiveClient[] = [];
    let b: FastifyInstance | undefined;
    let handleB: DatabaseHandle | undefined;

    before(async () => {
      base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      for (const c of clients) c.close();
      await ctx.app.close();
      await b?.close();
      await handleB?.close();
    });

    const open = async (site: Site, headers: Record<string, string> = site.key, pageId = '/', at = base) => {
      const client = await openLive(at, pageId, headers);
      clients.push(client);
      return client;
    };
    const previewHeaders = async (site: Site) => {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/preview-tokens',
        headers: site.editing,
        payload: {},
      });
      assert.equal(res.status, 201);
      return { ...site.key, 'x-cms-preview': res.body.data.token as string };
    };
    const entryOf = (event: { event: string; data: string }) => {
      assert.equal(event.event, 'entry');
      return JSON.parse(event.data);
    };

    async function publishedSite(title = 'v1') {
      const site = await newSite(ctx.app);
      const id = await heroEntry(ctx.app, site);
      const res = await patchEntry(ctx.app, site, id, { fields: { title }, status: 'published' });
      assert.equal(res.status, 200);
      return { site, id };
    }

    it('a visitor stream starts with what the visitor sees, then gets each publish as GET shows it', async () => {
      const { site, id } = await publishedSite('v1');
      const stream = await open(site);
      assert.equal(stream.status, 200);
      assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      assert.equal(stream.headers.get('cache-control'), 'no-cache');
      assert.deepEqual(entryOf(await stream.nextChange()), (await visitorEntries(ctx.app, site, '/'))[0]);

      assert.equal(
        (await patchEntry(ctx.app, site, id, { fields: { title: 'v2' }, status: 'published' })).status,
        200,
      );
      const entry = entryOf(await stream.nextChange());
      assert.equal(entry.fields.title, 'v2');
      assert.deepEqual(entry, (await visitorEntries(ctx.app, site, '/'))[0]);
      stream.close();
    });

    it('a working-copy save reaches a preview stream but not a visitor stream', async () => {
      const { site, id } = await publishedSite('live');
      const visitor = await open(site);
      const preview = await open(site, await previewHeaders(site));
      assert.equal(preview.headers.get('cache-control'), 'private, no-store');
      await visitor.nextChange();
      await preview.nextChange();

      assert.equal((await patchEntry(ctx.app, site, id, { fields: { title: 'draft' } })).status, 200);
      const draft = entryOf(await preview.nextChange());
      assert.equal(draft.fields.title, 'draft');
      assert.equal(draft.status, 'draft');
      assert.deepEqual(draft, (await editorEntries(ctx.app, site, '/'))[0]);

      // A new component synced on the page: a stub appears to the preview only.
      await sync(ctx.app, site, '/', [
        { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] },
        { componentId: 'Footer', instanceKey: 'footer', fields: [] },
      ]);
      const stub = entryOf(await preview.nextChange());
      assert.equal(stub.instanceKey, 'footer');
      await visitor.quiet(400);
      visitor.close();
      preview.close();
    });

    it('an unpublish sends deleted to visitors and the draft entry to previews', async () => {
      const { site, id } = await publishedSite('gone soon');
      const visitor = await open(site);
      const preview = await open(site, await previewHeaders(site));
      await visitor.nextChange();
      await preview.nextChange();
      const res = await call(ctx.app, {
        method: 'POST',
        url: `/v1/content/${id}/unpublish`,
        headers: site.editing,
      });
      assert.equal(res.status, 200);
      const deleted = await visitor.nextChange();
      assert.equal(deleted.event, 'deleted');
      assert.deepEqual(JSON.parse(deleted.data), { id });
      const draft = entryOf(await preview.nextChange());
      assert.equal(draft.status, 'draft');
      assert.equal(draft.publishedAt, null);
      visitor.close();
      preview.close();
    });

    it('a preview stream ends when its token expires', async () => {
      const { site } = await publishedSite();
      const headers = await previewHeaders(site);
      const soon = new Date(Date.now() + 1500).toISOString();
      await sql`update preview_tokens set expires_at = ${soon} where token_hash = ${sha256Hex(headers['x-cms-preview'])}`.execute(
        ctx.db,
      );
      const stream = await open(site, headers);
      assert.equal(stream.status, 200);
      await stream.nextChange();
      const started = Date.now();
      await stream.ended;
      assert.ok(Date.now() - started < 3000);
    });

    it('sends a comment line at the heartbeat interval', async () => {
      const { site } = await publishedSite();
      const stream = await open(site);
      await stream.next((e) => e.event === 'comment' && e.data === 'keep-alive', 1500);
      stream.close();
    });

    it('bad input: no pageId, missing or unknown key, unknown or foreign preview token', async () => {
      const { site } = await publishedSite();
      const other = await newSite(ctx.app);
      const raw = (query: string, headers: Record<string, string>) =>
        call(ctx.app, { method: 'GET', url: `/v1/live${query}`, headers });
      assert.equal((await raw('', site.key)).status, 400);
      assert.equal((await raw('?pageId=', site.key)).status, 400);
      assert.equal((await raw('?pageId=%2F', {})).status, 401);
      assert.equal((await raw('?pageId=%2F', { 'x-cms-key': 'cms_pk_unknown' })).status, 401);
      assert.equal(
        (await raw('?pageId=%2F', { ...site.key, 'x-cms-preview': 'cms_pv_unknown' })).status,
        401,
      );
      const foreign = await previewHeaders(other);
      const res = await raw('?pageId=%2F', { ...site.key, 'x-cms-preview': foreign['x-cms-preview'] });
      assert.equal(res.status, 403);
      // A session alone is not a site credential here.
      assert.equal((await raw('?pageId=%2F', bearer(site.editor.token))).status, 401);
    });

    it('answers CORS as content does', async () => {
      const { site } = await publishedSite();
      const stream = await open(site, { ...site.key, origin: 'https://shop.example.com' });
      assert.equal(stream.headers.get('access-control-allow-origin'), 'https://shop.example.com');
      stream.close();
      const preflight = await fetch(`${base}/v1/live?pageId=%2F`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example.com',
          'access-control-request-headers': 'x-cms-key, x-cms-preview',
        },
      });
      assert.equal(preflight.status, 200);
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /x-cms-preview/);
    });

    it(`refuses a stream over ${MAX_STREAMS} per project with 429; other projects are not affected`, async () => {
      const { site } = await publishedSite();
      const streams = [];
      for (let i = 0; i < MAX_STREAMS; i++) streams.push(await open(site));
      const over = await open(site);
      assert.equal(over.status, 429);
      assert.equal(over.body.error.code, 'rate_limited');
      assert.ok(Number(over.headers.get('retry-after')) > 0);
      const other = await publishedSite();
      const elsewhere = await open(other.site);
      assert.equal(elsewhere.status, 200);
      elsewhere.close();
      // A stream that closes frees its place (the server sees the disconnect shortly after).
      streams[0]?.close();
      let again = await open(site);
      for (let i = 0; again.status === 429 && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 20));
        again = await open(site);
      }
      assert.equal(again.status, 200);
      for (const s of [...streams, again]) s.close();
    });

    it('a reader that stops reading is disconnected once its unsent bytes pass the bound', async () => {
      logLines.length = 0; // the log stream is shared by both databases' suites
      const { site, id } = await publishedSite();
      const headers = await previewHeaders(site);
      const { port } = new URL(base);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`GET /v1/live?pageId=%2F HTTP/1.1\r\nhost: localhost\r\n${lines.join('')}\r\n`);
      socket.pause(); // never reads: the kernel buffers fill, then the server's
      const closedLine = () => logLines.some((l) => l.includes('closed a stream whose reader is too slow'));
      const big = 'x'.repeat(90_000);
      let edits = 0;
      while (!closedLine() && edits < 300) {
        edits += 1;
        const res = await patchEntry(ctx.app, site, id, { fields: { body: `${edits}${big}` } });
        assert.equal(res.status, 200);
      }
      assert.ok(closedLine(), `still open after ${edits} edits of 90 kB`);
      // Reading again, the client finds its stream cut short: everything buffered, then the end.
      let received = 0;
      const ended = new Promise<void>((resolve) => {
        socket.on('data', (chunk) => {
          received += chunk.length;
        });
        socket.on('close', () => resolve());
        socket.on('error', () => {});
      });
      socket.resume();
      await ended;
      assert.ok(received < edits * 90_000, `received ${received} of ${edits * 90_000} bytes`);
    });

    it('a publish through instance A reaches a stream on instance B within a second', async (t) => {
      if (ctx.kind !== 'postgres') return t.skip('SQLite runs one instance per file');
      handleB = await openDatabase(ctx.database.config);
      b = await buildApp({ config: ctx.config, database: handleB });
      const baseB = await b.listen({ port: 0, host: '127.0.0.1' });
      const { site, id } = await publishedSite('before');
      const onB = await open(site, site.key, '/', baseB);
      assert.equal(entryOf(await onB.nextChange()).fields.title, 'before');
      const started = Date.now();
      assert.equal(
        (await patchEntry(ctx.app, site, id, { fields: { title: 'after' }, status: 'published' })).status,
        200,
      );
      const entry = entryOf(await onB.nextChange(1000));
      assert.equal(entry.fields.title, 'after');
      assert.ok(Date.now() - started < 1000);
      onB.close();
      // B goes now: the suite drops the database before this file's own after hook runs.
      await b.close();
      await handleB.close();
      b = undefined;
      handleB = undefined;
    });

    // Last: it closes the suite's app.
    it('closing the app ends open streams cleanly and promptly', async () => {
      const { site } = await publishedSite();
      const streams = [await open(site), await open(site, await previewHeaders(site))];
      for (const s of streams) await s.nextChange();
      const started = Date.now();
      await ctx.app.close();
      await Promise.all(streams.map((s) => s.ended));
      assert.ok(Date.now() - started < 3000, `close took ${Date.now() - started} ms`);
    });
  },
  {
    env: {
      CMS_LIVE_HEARTBEAT_MS: '150',
      CMS_LIVE_MAX_STREAMS_PER_PROJECT: String(MAX_STREAMS),
      CMS_LIVE_MAX_BUFFER_BYTES: '65536',
      LOG_LEVEL: 'warn',
    },
    logStream,
  },
);
