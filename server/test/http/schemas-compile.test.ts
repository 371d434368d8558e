import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { call } from '../helpers/factories.js';

// Route schemas compile on a route's first request (src/http/lazy-schemas.ts), no longer at start:
// this keeps the start's old guarantee that every one of them compiles.
describeEachDb('route schemas', (ctx) => {
  it('a route validates with its schema when first called', async () => {
    const bad = await call(ctx.app, { method: 'POST', url: '/v1/auth/login', body: { email: 42 } });
    assert.equal(bad.status, 400);
    assert.equal((bad.body as { error: { code: string } }).error.code, 'validation_failed');
  });

  it('every route schema compiles', () => {
    assert.doesNotThrow(() => ctx.app.compileAllSchemas());
  });
});
