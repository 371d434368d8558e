import assert from 'node:assert/strict';
import { it } from 'node:test';
import Fastify from 'fastify';
import { createLazySchemas } from '../../src/http/lazy-schemas.js';
import { installValidation } from '../../src/http/validation.js';
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

  it('every route schema compiles and passes the meta-schema check', () => {
    assert.doesNotThrow(() => ctx.app.compileAllSchemas());
  });
});

it('a schema the JSON Schema meta-schema refuses fails the check, naming its route', async () => {
  const app = Fastify();
  const validation = installValidation(app, createLazySchemas());
  app.post('/bad', { schema: { body: { type: 'object', minProperties: 'two' } } }, async () => 'ok');
  await app.ready();
  assert.throws(() => validation.checkSchemas(), /POST \/bad body: .*minProperties/);
  await app.close();
});
