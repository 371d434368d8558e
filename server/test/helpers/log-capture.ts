import { Writable } from 'node:stream';

/** A log sink for buildApp's logStream that keeps every line written, for tests that read the logs. */
export function captureLog(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}
