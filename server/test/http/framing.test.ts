import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { before, it } from 'node:test';
import { MAX_PARAM_LENGTH } from '../../src/http/framing.js';
import { describeEachDb } from '../helpers/app.js';
import { HERO, newSite, pageUrl, sync } from '../helpers/content.js';
import { envelopeProblem } from '../helpers/envelope.js';
import { call } from '../helpers/factories.js';

/** Sends raw bytes and reads until the server closes (or 3 s pass); returns status, headers, body. */
function raw(
  port: number,
  request: string | Buffer,
): Promise<{ status: number; contentType?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {}); // a reset after the answer is expected
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const contentType = /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1];
      resolve({ status, contentType, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

/**
 * Issue 10 #9: answers written before a route runs (the router's, Node's HTTP parser's) carried
 * Fastify's or Node's own bodies. Each is now the contract's envelope. A real listening server,
 * since most of these never reach app.inject.
 */
describeEachDb('errors outside routing are enveloped (raw sockets)', (ctx) => {
  let port = 0;
  before(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as { port: number }).port;
  });

  const cases: [string, () => string, number][] = [
    [
      'a bad percent-escape',
      () => 'GET /v1/projects/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      400,
    ],
    [
      'an escape that is not UTF-8',
      () => 'GET /v1/content/%ED%A0%80 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      400,
    ],
    [
      'a path parameter over the router limit',
      () =>
        `GET /v1/projects/${'x'.repeat(MAX_PARAM_LENGTH + 1)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      414,
    ],
    [
      "headers over Node's limit",
      () => `GET /v1/projects HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
    ],
    ['an unknown method', () => 'FROB /v1/projects HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    [
      'a malformed Content-Length',
      () => 'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      400,
    ],
    [
      'Content-Length with Transfer-Encoding',
      () =>
        'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    ['a NUL in a header', () => 'GET /v1/projects HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n', 400],
    ['not HTTP at all', () => 'hello\r\n\r\n', 400],
    [
      'a method Node knows and no route has',
      () => 'PROPFIND /v1/projects HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      404,
    ],
    [
      'a broken chunked body',
      () =>
        'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      400,
    ],
  ];
  for (const [name, request, status] of cases) {
    it(`${name}: ${status} in the envelope`, async () => {
      const res = await raw(port, request());
      assert.equal(res.status, status, res.body.slice(0, 300));
      assert.equal(envelopeProblem(res.body, res.contentType), null, res.body.slice(0, 300));
    });
  }

  it('a 512-character page path is read, not refused by the router', async () => {
    const site = await newSite(ctx.app);
    const pageId = `/${'p'.repeat(511)}`;
    await sync(ctx.app, site, pageId, [HERO]);
    const res = await call(ctx.app, { method: 'GET', url: pageUrl(pageId), headers: site.key });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 200));
  });
});
