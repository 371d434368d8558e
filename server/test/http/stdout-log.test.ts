import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServerProcess } from '../helpers/process.js';

// The log as an operator reads it: a real server's stdout (SonicBoom in its buffer mode, pino's own
// lines and the access log's batches through one sink, src/http/logging.ts).
describe('stdout log of a server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-stdout-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is whole JSON lines: every access line once, and what pino writes, flushed at shutdown', async () => {
    const server = await startServerProcess({ CMS_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const count = 600; // more than one batch of access lines
    for (let i = 0; i < count; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, j) => {
          const res = await fetch(`${server.url}/health`, { headers: { 'x-request-id': `stdout-${i + j}` } });
          await res.arrayBuffer();
        }),
      );
    }
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);

    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; reqId?: string; level: number });
    const ids = parsed
      .filter((p) => p.msg === 'request' && p.reqId?.startsWith('stdout-'))
      .map((p) => p.reqId);
    assert.equal(ids.length, count, 'each request logged once');
    assert.equal(new Set(ids).size, count);
    assert.ok(
      parsed.some((p) => p.msg.startsWith('SIGTERM: closing')),
      "pino's own line at shutdown",
    );
    assert.ok(
      parsed.some((p) => p.msg.startsWith('Folio ')),
      "pino's line at start",
    );
  });
});
