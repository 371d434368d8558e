import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { TOO_MANY_CLIENT_STREAMS, TOO_MANY_STREAMS } from '../../src/modules/live/live.hub.js';
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
import { captureLog } from '../helpers/log-capture.js';
import { type LiveClient, openLive } from '../helpers/sse.js';

const { lines: logLines, stream: logStream } = captureLog();

const MAX_STREAMS = 5;
const PER_CLIENT = 3;
/** A client address as the server sees it (the suite trusts X-Forwarded-For, as behind a proxy). */
const from = (address: string) => ({ 'x-forwarded-for': address });

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
    /** Opens a stream, retrying while a place that was just freed is still counted (429). */
    const openEventually = async (site: Site, headers: Record<string, string>) => {
      let stream = await open(site, headers);
      for (let i = 0; stream.status === 429 && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 20));
        stream = await open(site, headers);
      }
      return stream;
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
      // From as many addresses: the per-client cap is not what this test is about.
      for (let i = 0; i < MAX_STREAMS; i++)
        streams.push(await open(site, { ...site.key, ...from(`192.0.2.${i}`) }));
      const over = await open(site, { ...site.key, ...from('192.0.2.200') });
      assert.equal(over.status, 429);
      assert.equal(over.body.error.code, 'rate_limited');
      assert.equal(over.body.error.message, TOO_MANY_STREAMS);
      assert.ok(Number(over.headers.get('retry-after')) > 0);
      const other = await publishedSite();
      const elsewhere = await open(other.site);
      assert.equal(elsewhere.status, 200);
      elsewhere.close();
      // A stream that closes frees its place (the server sees the disconnect shortly after).
      streams[0]?.close();
      const again = await openEventually(site, { ...site.key, ...from('192.0.2.200') });
      assert.equal(again.status, 200);
      for (const s of [...streams, again]) s.close();
    });

    it(`one client holds at most ${PER_CLIENT} streams of a project; its next is 429 while others still get theirs`, async () => {
      const { site } = await publishedSite();
      const greedy = { ...site.key, ...from('203.0.113.7') };
      const streams = [];
      for (let i = 0; i < PER_CLIENT; i++) streams.push(await open(site, greedy));
      assert.ok(streams.every((s) => s.status === 200));
      const over = await open(site, greedy);
      assert.equal(over.status, 429);
      assert.equal(over.body.error.code, 'rate_limited');
      assert.equal(over.body.error.message, TOO_MANY_CLIENT_STREAMS);
      assert.ok(Number(over.headers.get('retry-after')) > 0);
      // Another visitor of the project, and the same client on another project, are not affected.
      const neighbour = await open(site, { ...site.key, ...from('203.0.113.8') });
      assert.equal(neighbour.status, 200);
      const other = await publishedSite();
      const elsewhere = await open(other.site, { ...other.site.key, ...from('203.0.113.7') });
      assert.equal(elsewhere.status, 200);
      // A preview stream counts for its client as a visitor's does.
      const preview = await open(site, { ...(await previewHeaders(site)), ...from('203.0.113.7') });
      assert.equal(preview.status, 429);
      // Closing one frees its place for that client.
      streams[0]?.close();
      const again = await openEventually(site, greedy);
      assert.equal(again.status, 200);
      for (const s of [...streams, neighbour, elsewhere, again]) s.close();
    });

    it('1,000 connect/abort cycles from one client leave its count at zero (no place leaks)', async () => {
      const { site } = await publishedSite();
      const { port } = new URL(base);
      const address = '198.51.100.1';
      const request = `GET /v1/live?pageId=%2F HTTP/1.1\r\nhost: localhost\r\nx-cms-key: ${site.key['x-cms-key']}\r\nx-forwarded-for: ${address}\r\n\r\n`;
      /** One cycle: connect, ask for a stream, and go away at one of three moments. */
      const cycle = (i: number) =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1');
          socket.on('error', () => {});
          socket.on('close', () => resolve());
          socket.once('connect', () => {
            socket.write(request);
            if (i % 3 === 0)
              socket.destroy(); // before the server has answered
            else if (i % 3 === 1)
              socket.once('data', () => socket.destroy()); // once the stream is open
            else setTimeout(() => socket.destroy(), 5); // somewhere in between
          });
        });
      const CYCLES = 1000;
      const AT_ONCE = PER_CLIENT; // never more at once than the client may hold: none is refused
      let refusedOrOpened = 0;
      for (let i = 0; i < CYCLES; i += AT_ONCE) {
        await Promise.all(Array.from({ length: Math.min(AT_ONCE, CYCLES - i) }, (_, j) => cycle(i + j)));
        refusedOrOpened += AT_ONCE;
      }
      assert.ok(refusedOrOpened >= CYCLES);
      // The client's count is back at zero: it gets exactly its ${PER_CLIENT} places again, no fewer.
      const streams = [];
      for (let i = 0; i < PER_CLIENT; i++) {
        streams.push(await openEventually(site, { ...site.key, ...from(address) }));
      }
      assert.deepEqual(
        streams.map((s) => s.status),
        Array(PER_CLIENT).fill(200),
      );
      const over = await open(site, { ...site.key, ...from(address) });
      assert.equal(over.status, 429);
      for (const s of streams) s.close();
      // And nothing of the churn is still held open on the server.
      const gauge = async () => {
        const text = await (await fetch(`${base}/metrics`)).text();
        return Number(/^folio_live_streams_open (\d+)/m.exec(text)?.[1]);
      };
      let open_ = await gauge();
      for (let i = 0; open_ !== 0 && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 20));
        open_ = await gauge();
      }
      assert.equal(open_, 0);
    });

    it('a preview stream ends at once when its token is ended; other streams stay', async () => {
      const { site, id } = await publishedSite();
      const ended = await open(site, await previewHeaders(site));
      const adminToken = await call(ctx.app, {
        method: 'POST',
        url: '/v1/preview-tokens',
        headers: { ...site.key, ...bearer(site.admin.token) },
        payload: {},
      });
      const kept = await open(site, { ...site.key, 'x-cms-preview': adminToken.body.data.token });
      const visitor = await open(site);
      for (const s of [ended, kept, visitor]) await s.nextChange();
      const started = Date.now();
      const res = await call(ctx.app, { method: 'DELETE', url: '/v1/preview-tokens', headers: site.editing });
      assert.deepEqual(res.body.data, { deleted: 1 });
      await ended.ended;
      assert.ok(Date.now() - started < 1000, `ended after ${Date.now() - started} ms`);
      // The others still follow changes.
      assert.equal((await patchEntry(ctx.app, site, id, { fields: { title: 'later' } })).status, 200);
      assert.equal(entryOf(await kept.nextChange()).fields.title, 'later');
      kept.close();
      visitor.close();
    });

    it('a reader that stops reading is disconnected once its unsent bytes pass the bound', async () => {
      logLines.length = 0; // the log stream is shared by both databases' suites
      const { site, id } = await publishedSite();
      const headers = await previewHeaders(site);
      const { port } = new URL(base);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      const slow = '198.51.100.2';
      const lines = Object.entries({ ...headers, ...from(slow) }).map(([k, v]) => `${k}: ${v}\r\n`);
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
      // The dropped reader's place is free again: its client gets all of its places.
      const streams = [];
      for (let i = 0; i < PER_CLIENT; i++)
        streams.push(await openEventually(site, { ...site.key, ...from(slow) }));
      assert.deepEqual(
        streams.map((st) => st.status),
        Array(PER_CLIENT).fill(200),
      );
      for (const st of streams) st.close();
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

    it('a preview token ended through A is refused on B, and its stream on B ends, within a second', async (t) => {
      if (ctx.kind !== 'postgres') return t.skip('SQLite runs one instance per file');
      handleB = await openDatabase(ctx.database.config);
      b = await buildApp({ config: ctx.config, database: handleB });
      const baseB = await b.listen({ port: 0, host: '127.0.0.1' });
      const { site } = await publishedSite();
      const headers = await previewHeaders(site);
      const onB = await open(site, headers, '/', baseB);
      await onB.nextChange();
      const started = Date.now();
      // The creator leaves the project, through A.
      const removed = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/users/${site.editor.id}`,
        headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
      });
      assert.equal(removed.status, 200);
      const read = await call(b, { method: 'GET', url: '/v1/content/%2F', headers });
      assert.equal(read.status, 401);
      await onB.ended;
      assert.ok(Date.now() - started < 1000, `B's stream ended after ${Date.now() - started} ms`);
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
      CMS_LIVE_STREAMS_PER_CLIENT: String(PER_CLIENT),
      CMS_TRUST_PROXY: 'true',
      CMS_LIVE_MAX_BUFFER_BYTES: '65536',
      LOG_LEVEL: 'warn',
    },
    logStream,
  },
);
