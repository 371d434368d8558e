import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { stageStream } from './media.staging.js';

describe('staging an upload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-staging-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Occupies every thread of libuv's pool with an `open` of a FIFO that has no writer, so any file
   * operation started meanwhile waits; `release` lets them all go.
   */
  async function holdFilePool(): Promise<{ release: () => Promise<void> }> {
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const fifos = Array.from({ length: threads }, (_, i) => join(dir, `pool-${i}`));
    execFileSync('mkfifo', fifos);
    const readers = fifos.map((fifo) => open(fifo, 'r'));
    return {
      async release() {
        // A FIFO opened read-write never blocks and counts as a writer, which frees its reader.
        const writers = fifos.map((fifo) => openSync(fifo, constants.O_RDWR));
        for (const reader of await Promise.all(readers)) await reader.close();
        for (const fd of writers) closeSync(fd);
      },
    };
  }

  it('a source that failed before it began is reported only once its file exists (so the caller can remove it)', async () => {
    const target = join(dir, 'upload.part');
    const source = new Readable({ read() {} });
    source.push(Buffer.alloc(100));
    source.destroy(new Error('Unexpected end of multipart data'));

    const pool = await holdFilePool();
    let existedWhenReported: boolean | undefined;
    const staged = stageStream(source, target, 1000).then(
      () => assert.fail('staged a failed source'),
      () => {
        existedWhenReported = existsSync(target);
      },
    );
    // Let the failure run as far as it can while the file's open is still queued.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.release();
    await staged;
    await stat(dir); // queued behind the open: the pool has drained
    // Before the fix the failure came first and the file appeared after it: whoever removed it
    // on the failure removed nothing, and a staging file was left behind (seen in CI under load).
    assert.equal(existedWhenReported, true);
    assert.equal(existsSync(target), true);
  });
});
