import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type SseEvent, sseParser } from '../src/sse.js';

function parseAll(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const feed = sseParser((event) => events.push(event));
  for (const chunk of chunks) feed(chunk);
  return events;
}

describe('the SSE parser', () => {
  it('reads named events, skips comments, and dispatches on a blank line', () => {
    const text =
      ': stream open\n\nevent: entry\ndata: {"id":"a"}\n\n: keep-alive\n\nevent: deleted\ndata: {"id":"a"}\n\n';
    assert.deepEqual(parseAll([text]), [
      { event: 'entry', data: '{"id":"a"}' },
      { event: 'deleted', data: '{"id":"a"}' },
    ]);
  });

  it('gives the same events whatever the chunking, CRLF split across chunks included', () => {
    const text =
      'event: entry\r\ndata: {"id":"a"}\r\n\r\nevent: entry\rdata: one\rdata: two\r\rdata: plain\n\n';
    const expected = [
      { event: 'entry', data: '{"id":"a"}' },
      { event: 'entry', data: 'one\ntwo' },
      { event: 'message', data: 'plain' },
    ];
    assert.deepEqual(parseAll([text]), expected);
    for (let size = 1; size <= 7; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      assert.deepEqual(parseAll(chunks), expected, `chunks of ${size}`);
    }
  });

  it('keeps an event that has not ended yet, and ignores fields it does not use', () => {
    assert.deepEqual(parseAll(['id: 7\nretry: 100\nevent: entry\ndata:x\n']), []);
    assert.deepEqual(parseAll(['event: entry\ndata:x\n', '\n']), [{ event: 'entry', data: 'x' }]);
  });
});
