import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { cachedJson } from '../shared/cached-json.js';
import type { AccessLine } from './access-line.js';
import { createFastReads } from './fast-reads.js';

/**
 * The fast path's decisions, over a real local server whose fallback answers 599: what it answers,
 * and every case where it must leave the request to the normal route. test/modules/fast-reads.test.ts
 * compares its answers with the route's on the real app.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('fast reads', () => {
  const page = cachedJson(Buffer.from('{"data":[{"id":"ent_1"}],"error":null}'));
  const frCa = cachedJson(Buffer.from('{"data":[{"id":"ent_1","locale":"fr-CA"}],"error":null}'));
  const frCaOwn = cachedJson(Buffer.from('{"data":[],"error":null}'));
  const lines: AccessLine[] = [];
  const answered: string[] = [];
  let closing = false;
  const fastReads = createFastReads(
    {
      projectIdOfKey: (key) => (key === 'cms_pk_good' ? 'prj_1' : undefined),
      page: (projectId, pageId, locale, fallback) => {
        if (projectId !== 'prj_1' || pageId !== '/about') return undefined;
        if (locale === undefined) return page;
        if (locale === 'fr-CA') return fallback === false ? frCaOwn : frCa;
        return undefined;
      },
      snapshotEtag: (projectId, locale) =>
        projectId !== 'prj_1'
          ? undefined
          : locale === undefined
            ? '"sha256:abc"'
            : locale === '*'
              ? '"sha256:all"'
              : undefined,
    },
    { write: (line) => lines.push(line), flush: () => {} },
    (kind, status) => answered.push(`${kind} ${status}`),
    () => closing,
  );
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((req, res) => {
      if (fastReads(req, res)) return;
      req.resume();
      res.writeHead(599).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const key = { 'x-cms-key': 'cms_pk_good' };
  function get(path: string, headers: Record<string, string> | string[], method = 'GET', body?: string) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        // As an array (raw: repeated names, any case) Node adds no Host of its own.
        const sent = Array.isArray(headers) ? ['Host', '127.0.0.1', ...headers] : headers;
        const req = request({ port, host: '127.0.0.1', path, method, headers: sent }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      },
    );
  }

  it('answers a cached page with its bytes and the route headers, logged and counted', async () => {
    lines.length = 0;
    answered.length = 0;
    const res = await get('/v1/content/%2Fabout', { ...key, 'x-request-id': 'req-1' });
    assert.equal(res.status, 200);
    assert.equal(res.body, page.body.toString());
    assert.equal(res.headers.etag, page.etag);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers.vary, 'Origin');
    assert.equal(res.headers['content-length'], String(page.body.length));
    assert.equal(res.headers['x-request-id'], 'req-1');
    assert.deepEqual(answered, ['page 200']);
    assert.equal(lines.length, 1);
    assert.deepEqual(
      { ...lines[0], responseTimeMs: 0 },
      {
        reqId: 'req-1',
        method: 'GET',
        url: '/v1/content/%2Fabout',
        statusCode: 200,
        responseTimeMs: 0,
      },
    );
  });

  it('answers 304 for a page or the snapshot whose ETag the request names', async () => {
    answered.length = 0;
    const pageRes = await get('/v1/content/%2Fabout', { ...key, 'if-none-match': page.etag });
    assert.equal(pageRes.status, 304);
    assert.equal(pageRes.body, '');
    const snap = await get('/v1/snapshot', { ...key, 'if-none-match': '"x", "sha256:abc"' });
    assert.equal(snap.status, 304);
    assert.equal(snap.headers.etag, '"sha256:abc"');
    assert.deepEqual(answered, ['page 304', 'snapshot 304']);
  });

  it('leaves to the route whatever it cannot answer exactly as the route would', async () => {
    const cases: [string, string, Record<string, string>, string?][] = [
      ['a snapshot 200 (megabytes, once per build)', '/v1/snapshot', key],
      ['a snapshot ETag that is not current', '/v1/snapshot', { ...key, 'if-none-match': '"old"' }],
      ['a page not cached', '/v1/content/%2Fnot-cached', key],
      ['an unknown or rotated key', '/v1/content/%2Fabout', { 'x-cms-key': 'cms_pk_old' }],
      ['no key', '/v1/content/%2Fabout', {}],
      ['a session (drafts)', '/v1/content/%2Fabout', { ...key, authorization: 'Bearer x' }],
      ['a preview token', '/v1/content/%2Fabout', { ...key, 'x-cms-preview': 'cms_pv_x' }],
      ['a browser (CORS)', '/v1/content/%2Fabout', { ...key, origin: 'https://example.com' }],
      ['a project header to check', '/v1/content/%2Fabout', { ...key, 'x-cms-project-id': 'prj_2' }],
      ['a query string', '/v1/content/%2Fabout?x=1', key],
      ['a deeper path', '/v1/content/%2Fabout/history', key],
      ['a malformed escape', '/v1/content/%E0%A4%A', key],
      ['another route', '/v1/pages', key],
    ];
    for (const [why, path, headers] of cases) {
      assert.equal((await get(path, headers)).status, 599, why);
    }
    assert.equal((await get('/v1/content/%2Fabout', key, 'HEAD')).status, 599, 'HEAD');
    assert.equal((await get('/v1/content/%2Fabout', key, 'POST', '{}')).status, 599, 'POST');
    assert.equal(
      (await get('/v1/content/%2Fabout', { ...key, 'content-length': '4' }, 'GET', 'body')).status,
      599,
      'a GET with a body',
    );
  });

  it('reads the headers as Node would: any case, repeated values joined', async () => {
    const etag = page.etag;
    const path = '/v1/content/%2Fabout';
    const titled = await get(path, [
      'X-Cms-Key',
      'cms_pk_good',
      'If-None-Match',
      etag,
      'X-Request-Id',
      'req-2',
    ]);
    assert.equal(titled.status, 304, 'names in any case');
    assert.equal(titled.headers['x-request-id'], 'req-2');
    const joined = await get(path, [
      'x-cms-key',
      'cms_pk_good',
      'if-none-match',
      '"x"',
      'if-none-match',
      etag,
    ]);
    assert.equal(joined.status, 304, 'two If-None-Match headers are one list');
    const ids = await get(path, ['x-cms-key', 'cms_pk_good', 'x-request-id', 'a', 'x-request-id', 'b']);
    assert.equal(ids.status, 200);
    assert.match(
      String(ids.headers['x-request-id']),
      UUID,
      'two ids join into "a, b", which is not sane: a new one',
    );
    const cases: [string, string[]][] = [
      ['two keys', ['x-cms-key', 'cms_pk_good', 'x-cms-key', 'cms_pk_good']],
      ['an empty key', ['x-cms-key', '']],
      ['AUTHORIZATION', ['x-cms-key', 'cms_pk_good', 'AUTHORIZATION', 'Bearer x']],
      ['an empty Authorization (present is enough)', ['x-cms-key', 'cms_pk_good', 'Authorization', '']],
      ['Origin', ['x-cms-key', 'cms_pk_good', 'Origin', 'https://example.com']],
      ['X-CMS-Preview', ['x-cms-key', 'cms_pk_good', 'X-CMS-Preview', 'cms_pv_x']],
      ['X-Cms-Project-Id', ['x-cms-key', 'cms_pk_good', 'X-Cms-Project-Id', 'prj_1']],
    ];
    for (const [why, headers] of cases) assert.equal((await get(path, headers)).status, 599, why);
    const chunked = await get(
      path,
      ['x-cms-key', 'cms_pk_good', 'Transfer-Encoding', 'chunked'],
      'GET',
      'body',
    );
    assert.equal(chunked.status, 599, 'a chunked body');
  });

  it('answers ?locale= (and ?fallback=) from the cache keyed by them, and leaves any other query to the route', async () => {
    assert.equal((await get('/v1/content/%2Fabout?locale=fr-CA', key)).body, frCa.body.toString());
    assert.equal(
      (await get('/v1/content/%2Fabout?locale=fr-CA&fallback=true', key)).body,
      frCa.body.toString(),
    );
    assert.equal(
      (await get('/v1/content/%2Fabout?fallback=false&locale=fr-CA', key)).body,
      frCaOwn.body.toString(),
    );
    assert.equal((await get('/v1/content/%2Fabout?fallback=false', key)).body, page.body.toString());
    for (const path of [
      '/v1/content/%2Fabout?locale=fr-ca', // not the project's spelling: the route matches it
      '/v1/content/%2Fabout?locale=fr-CA&locale=fr-CA',
      '/v1/content/%2Fabout?locale=fr-CA&fallback=no',
      '/v1/content/%2Fabout?locale=fr-CA&depth=1',
      '/v1/content/%2Fabout?locale=',
      '/v1/content/%2Fabout?',
      '/v1/content/%2Fabout?locale=fr%2DCA',
      '/v1/snapshot?fallback=false',
    ])
      assert.equal((await get(path, key)).status, 599, path);
    const snapshot = { ...key, 'if-none-match': '"sha256:all"' };
    assert.equal((await get('/v1/snapshot?locale=*', snapshot)).status, 304);
    assert.equal((await get('/v1/snapshot?locale=%2A', snapshot)).status, 304);
  });

  it('makes a new random (version 4) request id for each request that brings none', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const id = String((await get('/v1/content/%2Fabout', key)).headers['x-request-id']);
      assert.match(id, UUID);
      ids.add(id);
    }
    assert.equal(ids.size, 20);
  });

  it('steps aside once the app closes', async () => {
    assert.equal((await get('/v1/content/%2Fabout', key)).status, 200);
    closing = true;
    assert.equal((await get('/v1/content/%2Fabout', key)).status, 599);
  });
});
