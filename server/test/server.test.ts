import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createTestDatabase, dbKinds } from './helpers/db.js';
import { uniqueEmail } from './helpers/factories.js';
import { checkLeaks } from './helpers/leaks.js';
import { startServerProcess } from './helpers/process.js';

for (const kind of dbKinds()) {
  describe(`server process [${kind}]`, () =>
    checkLeaks(() => {
      it('answers /health, then on SIGTERM finishes the request in flight, logs every request and exits 0', async () => {
        const dataDir = mkdtempSync(join(tmpdir(), 'folio-server-'));
        const database = kind === 'postgres' ? await createTestDatabase('postgres') : null;
        // The default level: one access line per request, batched (src/http/logging.ts).
        const env: Record<string, string> = { CMS_DATA_DIR: dataDir, LOG_LEVEL: 'info' };
        if (database && database.config.kind === 'postgres') env.DATABASE_URL = database.config.url;
        const server = await startServerProcess(env);
        try {
          const health = await fetch(`${server.url}/health`);
          assert.equal(health.status, 200);
          assert.equal(((await health.json()) as { status: string }).status, 'ok');

          // A request whose body is still arriving when SIGTERM lands must still be answered.
          const body = JSON.stringify({
            name: 'In flight',
            admin: { email: uniqueEmail(), password: 'long enough pw' },
          });
          const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
            const req = request(
              `${server.url}/v1/projects`,
              {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
              },
              (res) => {
                let text = '';
                res.on('data', (c) => {
                  text += c;
                });
                res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
              },
            );
            req.on('error', reject);
            req.write(body.slice(0, 10));
            setTimeout(() => {
              server.child.kill('SIGTERM');
              setTimeout(() => req.end(body.slice(10)), 300);
            }, 100);
          });
          const res = await response;
          assert.equal(res.status, 201, res.text);
          assert.equal(await server.exited, 0, server.output());
          // The access lines still kept in memory at SIGTERM were written before the exit.
          const access = server
            .output()
            .split('\n')
            .filter((l) => l.includes('"msg":"request"'))
            .map((l) => JSON.parse(l) as { method: string; url: string; statusCode: number });
          assert.deepEqual(
            access.map((a) => `${a.method} ${a.url} ${a.statusCode}`),
            ['GET /health 200', 'POST /v1/projects 201'],
          );
          await assert.rejects(fetch(`${server.url}/health`), 'no longer accepting connections');
        } finally {
          server.child.kill('SIGKILL');
          await database?.drop();
          rmSync(dataDir, { recursive: true, force: true });
        }
      });
    }));
}

describe('server process config', () =>
  checkLeaks(() => {
    it('refuses to start with bad configuration, listing every bad variable', async () => {
      await assert.rejects(startServerProcess({ PORT: 'x', LOG_LEVEL: 'loud' }), (err: Error) => {
        assert.match(err.message, /PORT/);
        assert.match(err.message, /LOG_LEVEL/);
        return true;
      });
    });
  }));
