import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { describeEachDb, testConfig } from '../helpers/app.js';
import { createTestDatabase, withAdminClient } from '../helpers/db.js';
import { call } from '../helpers/factories.js';
import { sleep, waitFor } from '../helpers/hooks.js';

const ready = (app: FastifyInstance) => call(app, { method: 'GET', url: '/health/ready' });

/** A not-ready answer: 503 in the error envelope with Retry-After, naming `failed`. */
function assertNotReady(res: Awaited<ReturnType<typeof call>>, failed: string[]) {
  assert.equal(res.status, 503, JSON.stringify(res.body));
  assert.equal(res.body.data, null);
  assert.equal(res.body.error.code, 'unavailable');
  assert.equal(res.body.error.message, `Not ready: ${failed.join(', ')} failed.`);
  assert.ok(Number(res.headers['retry-after']) >= 1);
  for (const name of failed) assert.equal(res.body.error.details.checks[name], 'failed');
}

describeEachDb('health', (ctx) => {
  it('answers ok with the package version, unenveloped', async () => {
    const res = await call(ctx.app, { method: 'GET', url: '/health' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', version: ctx.config.version });
    assert.ok(res.headers['x-request-id']);
  });

  it('ready: 200 in the envelope when the database, migrations, change bus and media store answer', async () => {
    const res = await ready(ctx.app);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      data: {
        status: 'ready',
        version: ctx.config.version,
        checks: { database: 'ok', migrations: 'ok', changeBus: 'ok', mediaStorage: 'ok' },
      },
      error: null,
    });
  });

  it('ready: 503 naming the media store while its directory is gone; ready again once it is back', async () => {
    const media = join(ctx.config.dataDir, 'media');
    rmSync(media, { recursive: true, force: true });
    try {
      const res = await ready(ctx.app);
      assertNotReady(res, ['mediaStorage']);
      assert.deepEqual(res.body.error.details.checks, {
        database: 'ok',
        migrations: 'ok',
        changeBus: 'ok',
        mediaStorage: 'failed',
      });
      // Liveness is not readiness: the process and its database are fine.
      assert.equal((await call(ctx.app, { method: 'GET', url: '/health' })).status, 200);
    } finally {
      mkdirSync(join(media, 'tmp'), { recursive: true });
    }
    assert.equal((await ready(ctx.app)).status, 200);
  });

  it('ready: 503 naming migrations while one of this version is not applied', async () => {
    const database = await createTestDatabase(ctx.kind);
    const app = await buildApp({ config: ctx.config, database: database.handle });
    try {
      await migrateDown(database.handle.db);
      const res = await ready(app);
      assertNotReady(res, ['migrations']);
      assert.equal(res.body.error.details.checks.database, 'ok');
      await migrateToLatest(database.handle.db);
      assert.equal((await ready(app)).status, 200);
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it('ready: 503 naming the change bus while its LISTEN connection is down, then ready again', async (t) => {
    if (ctx.kind !== 'postgres')
      return t.skip('PostgreSQL only: the in-process bus of SQLite is always live');
    const name = new URL((ctx.database.config as { url: string }).url).pathname.slice(1);
    const terminateListener = () =>
      withAdminClient(async (admin) => {
        const { rowCount } = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query = 'LISTEN folio_changes'`,
          [name],
        );
        return rowCount ?? 0;
      });
    // The bus reconnects after a short back-off (100 ms); in between the instance is not ready. A
    // loaded machine may miss that window, so the connection is dropped again until a poll sees it.
    let down: Awaited<ReturnType<typeof ready>> | undefined;
    for (let attempt = 0; attempt < 20 && !down; attempt++) {
      assert.ok((await terminateListener()) >= 1 || attempt > 0, 'the app listens on its own connection');
      const until = Date.now() + 1000;
      while (!down && Date.now() < until) {
        const res = await ready(ctx.app);
        if (res.status === 503) down = res;
        else await sleep(5);
      }
    }
    assert.ok(down, 'never seen not ready');
    assertNotReady(down, ['changeBus']);
    await waitFor(async () => (await ready(ctx.app)).status === 200, 10_000, 'the bus to reconnect');
  });
});

/**
 * A database the app cannot use: PostgreSQL on a port nothing listens on (as the /health test
 * below), and for SQLite a migrated file whose connection is closed under the app.
 */
async function unusableDatabase(kind: string): Promise<{ database: DatabaseHandle; cleanUp(): void }> {
  if (kind === 'postgres') {
    return {
      database: await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/nowhere' }),
      cleanUp: () => {},
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'folio-ready-'));
  const database = await openDatabase({ kind: 'sqlite', file: join(dir, 'gone.sqlite') });
  await migrateToLatest(database.db);
  return { database, cleanUp: () => rmSync(dir, { recursive: true, force: true }) };
}

describeEachDb('readiness without a database', (ctx) => {
  it('ready is 503 naming the database when it cannot be reached (migrations skipped)', async () => {
    const { database, cleanUp } = await unusableDatabase(ctx.kind);
    const app = await buildApp({ config: ctx.config, database });
    try {
      await app.ready();
      if (ctx.kind === 'sqlite') await database.close();
      const res = await ready(app);
      // PostgreSQL: the change bus cannot listen either.
      assertNotReady(res, ctx.kind === 'postgres' ? ['database', 'changeBus'] : ['database']);
      assert.equal(res.body.error.details.checks.migrations, 'skipped');
      assert.equal(res.body.error.details.checks.mediaStorage, 'ok');
      assert.equal((await call(app, { method: 'GET', url: '/health' })).status, 503);
    } finally {
      await app.close();
      await database.close().catch(() => {});
      cleanUp();
    }
  });
});

it('health answers 503 when the database cannot be reached', async () => {
  const config = testConfig();
  const database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/nowhere' });
  const app = await buildApp({ config, database });
  try {
    const res = await call(app, { method: 'GET', url: '/health' });
    assert.equal(res.status, 503);
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.version, config.version);
    assert.ok(res.body.error);
  } finally {
    await app.close();
    await database.close();
  }
});
