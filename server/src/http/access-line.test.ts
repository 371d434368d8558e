import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AccessLine, accessLineFormat } from './access-line.js';

const base = { pid: 4242, hostname: 'host-a' };
const plain: AccessLine = {
  reqId: '3f4ca4a7-3000-4e98-9c6f-f835996859af',
  method: 'GET',
  url: '/v1/snapshot',
  statusCode: 304,
  responseTimeMs: 0.0712,
};

/** The line as `encode` writes it, or null when it leaves the line to `text`. */
function encoded(line: AccessLine, now: number, room = 4096): string | null {
  const into = Buffer.alloc(room);
  const end = accessLineFormat(base).encode(into, 7, line, now);
  return end < 0 ? null : into.subarray(7, end).toString('utf8');
}

describe('access line', () => {
  it("writes pino's JSON line: level, time, pid, hostname, the request's fields, msg", () => {
    const text = accessLineFormat(base).text(plain, 1764180000123);
    assert.equal(
      text,
      '{"level":30,"time":1764180000123,"pid":4242,"hostname":"host-a","reqId":"3f4ca4a7-3000-4e98-9c6f-f835996859af","method":"GET","url":"/v1/snapshot","statusCode":304,"responseTimeMs":0.1,"msg":"request"}\n',
    );
    assert.equal(encoded(plain, 1764180000123), text, 'the same bytes on both routes');
  });

  it('gives the same bytes on both routes for every plain line, whatever the numbers', () => {
    const format = accessLineFormat(base);
    const times = [
      0,
      0.04,
      0.05,
      0.05000001,
      0.96,
      0.95,
      1,
      9.95,
      12.34,
      99.99,
      100,
      1234.56,
      1e6 + 0.25,
      2 ** 40 + 0.3,
    ];
    const statuses = [100, 200, 204, 304, 404, 500, 599, 999];
    const methods = ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS', 'M-SEARCH'];
    let now = 1764180000000;
    for (const responseTimeMs of times)
      for (const statusCode of statuses)
        for (const method of methods) {
          now += 1;
          const line = { ...plain, responseTimeMs, statusCode, method, url: `/v1/content/%2F?x=${now}&y=~!` };
          const text = format.text(line, now);
          const bytes = encoded(line, now);
          if (method === 'M-SEARCH') assert.equal(bytes, null, 'a method with a dash goes by text');
          else assert.equal(bytes, text, JSON.stringify(line));
          assert.deepEqual(JSON.parse(text), {
            level: 30,
            time: now,
            pid: 4242,
            hostname: 'host-a',
            reqId: plain.reqId,
            method,
            url: line.url,
            statusCode,
            responseTimeMs: Math.round(responseTimeMs * 10) / 10,
            msg: 'request',
          });
        }
  });

  it('leaves to text a field to escape or beyond ASCII, an odd number, or a line that might not fit', () => {
    const refused: Partial<AccessLine>[] = [
      { url: '/a"b' },
      { url: '/a\\b' },
      { url: '/tab\there' },
      { url: '/caf\u00e9' },
      { url: '/\ud83d\ude00' },
      { reqId: 'r"1' },
      { reqId: '\u0001' },
      { statusCode: 99 },
      { statusCode: 1000 },
      { statusCode: 200.5 },
      { responseTimeMs: -1 },
      { responseTimeMs: Number.NaN },
      { responseTimeMs: 1e14 },
      { responseTimeMs: 1e20 },
    ];
    for (const change of refused)
      assert.equal(encoded({ ...plain, ...change }, 1), null, JSON.stringify(change));
    const text = accessLineFormat(base).text(plain, 1764180000123);
    // The room asked for is the line's with the response time at its longest (16 bytes, here 3).
    assert.equal(encoded(plain, 1764180000123, 7 + text.length + 12), null, 'no room for the worst case');
    assert.equal(encoded(plain, 1764180000123, 7 + text.length + 13), text, 'room for the worst case');
    const del = { ...plain, url: '/del\u007f' };
    assert.equal(encoded(del, 1), accessLineFormat(base).text(del, 1), 'DEL needs no escape');
  });

  it('writes the time of each call, not of the first in its millisecond', () => {
    const format = accessLineFormat(base);
    const into = Buffer.alloc(4096);
    let end = format.encode(into, 0, plain, 1000);
    end = format.encode(into, end, plain, 1000);
    end = format.encode(into, end, plain, 1001);
    const times = into
      .subarray(0, end)
      .toString()
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l).time);
    assert.deepEqual(times, [1000, 1000, 1001]);
  });

  it('writes each line with its own time as times go up, down, across a digit, and odd', () => {
    const format = accessLineFormat(base);
    const into = Buffer.alloc(16 * 1024);
    const times = [
      999999999998, 999999999999, 1000000000000, 1000000000001, 999999999999, 1764180000123, 1764180000123.5,
      1764180000124, 0, 9, 10, 1e14, 1764180000125, 1764180000126,
    ];
    let end = 0;
    for (const now of times) end = format.encode(into, end, plain, now);
    const expected = times.map((now) => format.text(plain, now)).join('');
    assert.equal(into.subarray(0, end).toString(), expected);
  });
});
