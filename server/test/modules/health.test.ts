import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/connect.js';
import { describeEachDb, testConfig } from '../helpers/app.js';
import { call } from '../helpers/factories.js';

describeEachDb('health', (ctx) => {
  it('answers ok with the package version, unenveloped', async () => {
    const res = await call(ctx.app, { method: 'GET', url: '/health' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', version: ctx.config.version });
    assert.ok(res.headers['x-request-id']);
  });
});

it('health answers 503 when the database cannot be reached', async () => {
  const config = testConfig();
  const database = openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/nowhere' });
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
