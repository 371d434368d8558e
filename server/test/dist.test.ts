import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { uniqueEmail } from './helpers/factories.js';
import { checkLeaks } from './helpers/leaks.js';
import { makeImage } from './helpers/media.js';
import { startServerProcess, startWorkerProcess } from './helpers/process.js';

/*
 * The build as `npm start` runs it: dist/server.js and dist/worker.js, the loaders of the CommonJS
 * bundles (scripts/bundle.ts, src/start/run-bundle.ts). The rest of the suite runs the source under
 * tsx, so this file is where the bundles' own ways are checked: what they load on first use (the
 * docs page, argon2, sharp and file-type on an upload) and their compile cache across two starts.
 * CI builds before it tests; so does `npm install`.
 */
const root = new URL('..', import.meta.url).pathname;
const built = existsSync(join(root, 'dist/server.cjs'));

/** The start-up line's compileCache field, once the process has logged it (its log is batched). */
async function compileCacheOf(process: { output: () => string }, message: RegExp): Promise<string> {
  let found: { compileCache?: string } | undefined;
  await until(() => {
    for (const line of process.output().split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; compileCache?: string };
      if (entry.msg && message.test(entry.msg)) found = entry;
    }
    return found !== undefined;
  }, `the line ${message}`);
  return String(found?.compileCache);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 15_000) throw new Error(`${what}: not after 15 s`);
    await sleep(50);
  }
}

describe('the build (dist/)', () =>
  checkLeaks(() => {
    it('is there: run `npm run build` first', () => {
      assert.ok(built, 'server/dist/server.cjs is missing');
    });

    it('runs the server from its bundle, loads what it needs on first use, and starts from its compile cache the second time', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'folio-dist-'));
      const cache = join(dataDir, 'compile-cache');
      const env = { CMS_DATA_DIR: dataDir, CMS_COMPILE_CACHE: cache, LOG_LEVEL: 'info' };
      try {
        const first = await startServerProcess(env, 'dist/server.js');
        try {
          assert.equal(await compileCacheOf(first, /^Folio .* on SQLite/), 'missing', first.output());
          const docs = await fetch(`${first.url}/docs`, { redirect: 'follow' });
          assert.equal(docs.status, 200);
          assert.match(await docs.text(), /swagger/i);

          const email = uniqueEmail('dist');
          const password = 'long enough pw';
          const created = await fetch(`${first.url}/v1/projects`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Dist', admin: { email, password } }),
          });
          assert.equal(created.status, 201, await created.clone().text());
          const { project } = ((await created.json()) as { data: { project: { id: string } } }).data;
          const login = await fetch(`${first.url}/v1/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password }),
          });
          assert.equal(login.status, 200);
          const { token } = ((await login.json()) as { data: { token: string } }).data;

          const form = new FormData();
          const png = await makeImage('png', 40, 30);
          form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
          const uploaded = await fetch(`${first.url}/v1/media/upload`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'x-cms-project-id': project.id },
            body: form,
          });
          const media = (await uploaded.json()) as { data: { mimeType: string; width: number } };
          assert.equal(uploaded.status, 201, JSON.stringify(media));
          assert.deepEqual([media.data.mimeType, media.data.width], ['image/png', 40]);

          await until(
            () => existsSync(cache) && readdirSync(cache).some((f) => /^server-.*\.v8$/.test(f)),
            'the compile cache written',
          );
        } finally {
          first.child.kill('SIGTERM');
          assert.equal(await first.exited, 0, first.output());
        }

        const second = await startServerProcess(env, 'dist/server.js');
        try {
          assert.equal(await compileCacheOf(second, /^Folio .* on SQLite/), 'used', second.output());
          assert.equal((await fetch(`${second.url}/health`)).status, 200);
        } finally {
          second.child.kill('SIGTERM');
          assert.equal(await second.exited, 0, second.output());
        }

        // The stand-alone worker has its own bundle and cache.
        const worker = await startWorkerProcess(env, 'dist/worker.js');
        try {
          assert.equal(await compileCacheOf(worker, /^Folio worker running/), 'missing', worker.output());
        } finally {
          worker.child.kill('SIGTERM');
          assert.equal(await worker.exited, 0, worker.output());
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }));
