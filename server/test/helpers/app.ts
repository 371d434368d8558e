import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import type { LogSink } from '../../src/http/logging.js';
import { createTestDatabase, type DbKind, dbKinds, type TestDatabase } from './db.js';
import { checkLeaks } from './leaks.js';

export interface TestContext {
  kind: DbKind;
  app: FastifyInstance;
  db: Db;
  config: Config;
  database: TestDatabase;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  logStream?: LogSink;
  /** Only these of the available kinds (a long suite split into one file per database). */
  kinds?: DbKind[];
  /** The app's clock for its windowed limits (AppOptions.now). */
  now?: () => number;
}

// A data directory of this test process's own: an app writes its key file there (never into /tmp itself).
let defaultDataDir: string | undefined;
function processDataDir(): string {
  if (!defaultDataDir) {
    const dir = mkdtempSync(join(tmpdir(), 'folio-test-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    defaultDataDir = dir;
  }
  return defaultDataDir;
}

/** A Config as the server would parse it, with test defaults (quiet logs, a temp data dir). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    CMS_DATA_DIR: env.CMS_DATA_DIR ?? processDataDir(),
    // Suites create many projects from one address; the limit itself has its own test.
    CMS_PROJECT_CREATE_LIMIT_PER_HOUR: '100000',
    ...env,
  });
}

/**
 * Runs `body` once per database kind, each with a fresh database and app built in `before` and
 * closed in `after`. Tests reach them through the context's getters.
 */
export function describeEachDb(
  name: string,
  body: (ctx: TestContext) => void,
  options: TestAppOptions = {},
): void {
  for (const kind of dbKinds().filter((k) => !options.kinds || options.kinds.includes(k))) {
    describe(`${name} [${kind}]`, () => {
      checkLeaks(() => {
        const state: Partial<TestContext> = { kind };
        let dataDir = '';
        before(async () => {
          dataDir = mkdtempSync(join(tmpdir(), 'folio-data-'));
          const database = await createTestDatabase(kind);
          const config = testConfig({ CMS_DATA_DIR: dataDir, ...options.env });
          state.database = database;
          state.db = database.handle.db;
          state.config = config;
          state.app = await buildApp({
            config,
            database: database.handle,
            logStream: options.logStream,
            ...(options.now && { now: options.now }),
          });
          await state.app.ready();
        });
        after(async () => {
          await state.app?.close();
          await state.database?.drop();
          rmSync(dataDir, { recursive: true, force: true });
        });
        body(
          new Proxy(state as TestContext, {
            get(target, prop: keyof TestContext) {
              const value = target[prop];
              if (value === undefined)
                throw new Error(`test context ${String(prop)} used before before() ran`);
              return value;
            },
          }),
        );
      });
    });
  }
}

/**
 * A second app on the context's database, built in `before` and closed in `after` (call inside
 * describeEachDb's body): instance B of a two-instance test. On SQLite, where one instance owns the
 * file, it is the context's own app. The returned function gives it once `before` has run.
 */
export function secondInstance(ctx: TestContext): () => FastifyInstance {
  let b: FastifyInstance | undefined;
  let handle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  before(async () => {
    if (ctx.kind !== 'postgres') {
      b = ctx.app;
      return;
    }
    handle = await openDatabase(ctx.database.config);
    b = await buildApp({ config: ctx.config, database: handle });
    await b.ready();
  });
  after(async () => {
    if (!handle) return;
    await b?.close();
    await handle.close();
  });
  return () => {
    if (!b) throw new Error('the second instance is used before before() ran');
    return b;
  };
}
