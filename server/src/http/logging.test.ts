import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ACCESS_BATCH_BYTES, createAccessLog, fdSink, type LogSink } from './logging.js';
import { requestIdOf } from './request-id.js';

const base = { pid: 42, hostname: 'host-a' };
/** A sink that keeps what it is given, as text. */
function keeper(): LogSink & { chunks: string[]; sizes: number[] } {
  const chunks: string[] = [];
  const sizes: number[] = [];
  return {
    chunks,
    sizes,
    write(chunk) {
      assert.ok(Buffer.isBuffer(chunk), 'the access log hands over bytes');
      chunks.push(chunk.toString('utf8'));
      sizes.push(chunk.length);
    },
  };
}

const line = (i: number) => ({
  reqId: `req-${i}`,
  method: 'GET',
  url: `/v1/content/%2F?"${i}`,
  statusCode: 200,
  responseTimeMs: 1.234,
});

describe('access log', () => {
  it('writes each made request id as made, the newest from its bytes and older ones from the string', () => {
    const { chunks, write } = keeper();
    const log = createAccessLog({ write }, base);
    try {
      const older = requestIdOf(undefined);
      const newest = requestIdOf(undefined);
      log.write({ ...line(1), url: '/v1/snapshot', reqId: newest });
      log.write({ ...line(2), url: '/v1/snapshot', reqId: older });
      log.write({ ...line(3), url: '/v1/snapshot', reqId: 'given-1' });
      log.flush();
      const ids = (chunks[0] as string)
        .split('\n')
        .slice(0, -1)
        .map((l) => JSON.parse(l).reqId);
      assert.deepEqual(ids, [newest, older, 'given-1']);
    } finally {
      log.close();
    }
  });

  it("keeps lines off the sink until a flush, then writes them at once, in pino's shape", () => {
    const { chunks, write } = keeper();
    const log = createAccessLog({ write }, base);
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
    const sink = keeper();
    const log = createAccessLog(sink, base);
    let written = 0;
    while (sink.chunks.length === 0) log.write(line(written++));
    assert.ok((sink.sizes[0] as number) <= ACCESS_BATCH_BYTES, 'a batch stays within its buffer');
    assert.ok(written > 200, `${written} lines in a batch`);
    log.write(line(written++));
    log.close();
    assert.equal(sink.chunks.length, 2);
    const lines = sink.chunks.join('').split('\n');
    assert.equal(lines.pop(), '', 'whole lines only');
    assert.deepEqual(
      lines.map((l) => JSON.parse(l).reqId),
      Array.from({ length: written }, (_, i) => `req-${i}`),
      'every line once, in order',
    );
    log.write(line(written));
    log.flush();
    assert.equal(sink.chunks.length, 3, 'a write after close is not lost either');
  });

  it('writes a line longer than a batch on its own, after the lines kept before it', () => {
    const sink = keeper();
    const log = createAccessLog(sink, base);
    const long = { ...line(2), url: `/v1/content/${'\u00e9'.repeat(ACCESS_BATCH_BYTES)}` };
    log.write(line(1));
    log.write(long);
    log.write(line(3));
    log.close();
    assert.equal(sink.chunks.length, 3);
    const parsed = sink.chunks
      .join('')
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      parsed.map((p) => p.reqId),
      ['req-1', 'req-2', 'req-3'],
    );
    assert.equal(parsed[1].url, long.url, 'two UTF-8 bytes a character, whole');
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
    const { chunks, write } = keeper();
    const log = createAccessLog({ write }, { pid: 1, hostname: 'h"ost' });
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

  it('fills a written batch again only once the sink has given it back', () => {
    // A sink whose writes complete when the test says so, keeping the very buffers it is handed.
    const held: { chunk: Buffer; text: string; written?: () => void }[] = [];
    const log = createAccessLog(
      {
        write(chunk, written) {
          assert.ok(Buffer.isBuffer(chunk));
          held.push({ chunk, text: chunk.toString('utf8'), written });
        },
      },
      base,
    );
    const fill = (from: number) => {
      for (let i = from; i < from + 100; i++) log.write(line(i));
      log.flush();
    };
    try {
      fill(0);
      fill(100); // the first batch is still being written: this one cannot be in its buffer
      fill(200);
      assert.equal(held.length, 3);
      assert.ok(
        held.every((h) => h.chunk.toString('utf8') === h.text),
        'no batch overwritten while held',
      );
      const buffers = new Set(held.map((h) => h.chunk.buffer));
      assert.equal(buffers.size, 3, 'three batches in flight, three buffers');
      held[0]?.written?.();
      fill(300); // was already filling when the first came back
      fill(400);
      assert.ok(held[4]?.chunk.buffer === held[0]?.chunk.buffer, 'the given-back buffer is filled again');
      assert.ok(
        held.slice(1).every((h) => h.chunk.toString('utf8') === h.text),
        'the held ones untouched',
      );
      assert.deepEqual(
        held
          .map((h) => h.text) // as handed over: the first buffer has since been filled again
          .join('')
          .split('\n')
          .slice(0, -1)
          .map((l) => JSON.parse(l).reqId),
        Array.from({ length: 500 }, (_, i) => `req-${i}`),
      );
    } finally {
      log.close();
    }
  });

  it('fdSink says a chunk is written only once its bytes are in the file, once each, in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-sink-'));
    const file = join(dir, 'out.log');
    const fd = openSync(file, 'w');
    try {
      const sink = fdSink(fd);
      const seen: number[] = [];
      let end = 0;
      for (let i = 0; i < 200; i++) {
        sink.write(`pino ${i}\n`); // strings in between count towards the order too
        const chunk = Buffer.from(`access ${i} ${'x'.repeat(i * 50)}\n`);
        end += Buffer.byteLength(`pino ${i}\n`) + chunk.length;
        const mustHave = end;
        sink.write(chunk, () => {
          assert.ok(readFileSync(file).length >= mustHave, `chunk ${i} reported before its bytes were out`);
          seen.push(i);
        });
      }
      assert.deepEqual(seen, [], 'not reported on the request path');
      for (let waited = 0; seen.length < 200 && waited < 5000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.deepEqual(
        seen,
        Array.from({ length: 200 }, (_, i) => i),
      );
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fdSink writes pino's strings and the access log's bytes to the file, in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-sink-'));
    const fd = openSync(join(dir, 'out.log'), 'w');
    try {
      const sink = fdSink(fd);
      let expected = '';
      // Many writes at once, so that strings and bytes wait together behind a write in flight.
      for (let i = 0; i < 3000; i++) {
        const text = i % 3 === 0 ? `pino caf\u00e9 \ud83d\ude00 ${i}\n` : `access ${i}\n`;
        sink.write(i % 3 === 0 ? text : Buffer.from(text));
        expected += text;
      }
      const bytes = Buffer.byteLength(expected);
      for (let waited = 0; readFileSync(join(dir, 'out.log')).length < bytes && waited < 5000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(readFileSync(join(dir, 'out.log'), 'utf8'), expected);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
