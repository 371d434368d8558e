import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAccessLog } from './logging.js';

const base = { pid: 42, hostname: 'host-a' };
const line = (i: number) => ({
  reqId: `req-${i}`,
  method: 'GET',
  url: `/v1/content/%2F?"${i}`,
  statusCode: 200,
  responseTimeMs: 1.234,
});

describe('access log', () => {
  it("keeps lines off the destination until a flush, then writes them at once, in pino's shape", () => {
    const chunks: string[] = [];
    const log = createAccessLog({ write: (c: string) => chunks.push(c) }, base);
    try {
      log.write(line(1));
      log.write(line(2));
      assert.equal(chunks.length, 0, 'nothing written on the request path');
      log.flush();
      assert.equal(chunks.length, 1, 'one write for the batch');
      const lines = (chunks[0] as string).split('\n');
      assert.equal(lines.pop(), '', 'each line ends with a newline');
      const parsed = lines.map((l) => JSON.parse(l));
      assert.deepEqual(
        parsed.map(({ time, ...rest }) => rest),
        [1, 2].map((i) => ({
          level: 30,
          pid: 42,
          hostname: 'host-a',
          reqId: `req-${i}`,
          method: 'GET',
          url: `/v1/content/%2F?"${i}`,
          statusCode: 200,
          responseTimeMs: 1.2,
          msg: 'request',
        })),
      );
      assert.ok(parsed.every((p) => typeof p.time === 'number'));
    } finally {
      log.close();
    }
  });

  it('writes a full batch without waiting for the timer, and the rest on close', () => {
    const chunks: string[] = [];
    const log = createAccessLog({ write: (c: string) => chunks.push(c) }, base);
    for (let i = 0; i < 258; i++) log.write(line(i));
    assert.equal(chunks.length, 1);
    assert.equal((chunks[0] as string).split('\n').length - 1, 256);
    log.close();
    assert.equal(chunks.length, 2);
    assert.equal((chunks[1] as string).split('\n').length - 1, 2);
    log.write(line(259));
    log.flush();
    assert.equal(chunks.length, 3, 'a write after close is not lost either');
  });

  it('escapes a field exactly as JSON.stringify does, and only when it must', () => {
    const urls = [
      '/v1/content/%2F',
      '/a"b\\c',
      '/tab\there\u0001\u001f',
      '/caf\u00e9/\u2028/\ud83d\ude00',
      '/lone\ud800surrogate',
      '/del\u007f',
    ];
    const chunks: string[] = [];
    const log = createAccessLog({ write: (c: string) => chunks.push(c) }, { pid: 1, hostname: 'h"ost' });
    for (const url of urls) log.write({ ...line(0), reqId: `r"${url.length}`, url });
    log.close();
    const lines = (chunks[0] as string).split('\n').slice(0, -1);
    urls.forEach((url, i) => {
      const raw = lines[i] as string;
      assert.ok(raw.includes(`"url":${JSON.stringify(url)},`), raw);
      assert.equal(JSON.parse(raw).url, url);
      assert.equal(JSON.parse(raw).reqId, `r"${url.length}`);
      assert.equal(JSON.parse(raw).hostname, 'h"ost');
    });
  });
});
