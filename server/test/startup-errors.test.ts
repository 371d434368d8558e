import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminUrl } from './helpers/db.js';
import { startServerProcess } from './helpers/process.js';

/** The start fails; what it printed, which must be one line with the fix and no stack. */
async function failedStart(env: Record<string, string>, entry?: string): Promise<string> {
  let output = '';
  await assert.rejects(startServerProcess(env, entry), (err: Error) => {
    output = err.message;
    return true;
  });
  assert.doesNotMatch(output, /^\s+at /m, `a stack was printed:\n${output}`);
  return output;
}

describe('start-up failures are one line with the fix', () => {
  let dataDir = '';
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-startup-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a port in use names the port and PORT', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const output = await failedStart({ CMS_DATA_DIR: dataDir, PORT: String(port) });
      assert.match(output, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use.*PORT`));
    } finally {
      taken.close();
    }
  });

  it('an unreachable PostgreSQL names the address and DATABASE_URL (server, worker and migrate alike)', async () => {
    const env = { CMS_DATA_DIR: dataDir, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/folio' };
    for (const entry of ['src/server.ts', 'src/worker.ts', 'src/cli/migrate.ts']) {
      const output = await failedStart(env, entry);
      assert.match(output, /Cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\).*DATABASE_URL/, entry);
    }
  });

  it('a data directory that cannot be created names CMS_DATA_DIR', async () => {
    const output = await failedStart({ CMS_DATA_DIR: '/etc/hostname/folio' });
    assert.match(output, /Cannot open the SQLite database .*CMS_DATA_DIR/);
  });

  it('a PostgreSQL database that does not exist says how to create it', {
    skip: !process.env.TEST_DATABASE_URL,
  }, async () => {
    const url = new URL(adminUrl());
    url.pathname = '/folio_missing_database';
    const output = await failedStart({ CMS_DATA_DIR: dataDir, DATABASE_URL: url.toString() });
    assert.match(
      output,
      /database "folio_missing_database" does not exist .*createdb .*folio_missing_database/,
    );
  });
});
