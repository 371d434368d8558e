import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { call } from '../helpers/factories.js';

describeEachDb(
  'errors and the envelope',
  (ctx) => {
    it('an unknown route is a 404 envelope', async () => {
      const res = await call(ctx.app, { method: 'GET', url: '/v1/nothing-here?x=1' });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, {
        data: null,
        error: { code: 'not_found', message: 'No route GET /v1/nothing-here.' },
      });
    });

    it('unparseable JSON is 400 invalid_json', async () => {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/projects',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'invalid_json');
      assert.equal(res.body.data, null);
    });

    it('an empty JSON body is 400 invalid_json', async () => {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'invalid_json');
    });

    it('a body over CMS_BODY_LIMIT_BYTES is 413 payload_too_large', async () => {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/projects',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(5000), admin: { email: 'a@b.co', password: 'pppppppp' } }),
      });
      assert.equal(res.status, 413);
      assert.equal(res.body.error.code, 'payload_too_large');
    });

    it('a body in an unsupported content type is 415', async () => {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/projects',
        headers: { 'content-type': 'application/xml' },
        payload: '<project/>',
      });
      assert.equal(res.status, 415);
      assert.equal(res.body.error.code, 'unsupported_media_type');
    });

    it('schema failures list every failing path', async () => {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/projects',
        payload: { name: 42, admin: {}, extra: true },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.deepEqual(res.body.error.details.map((d: { path: string }) => d.path).sort(), [
        'body.admin.email',
        'body.admin.password',
        'body.extra',
        'body.name',
      ]);
    });

    it('every response carries x-request-id, echoing a sane one from the caller', async () => {
      const own = await call(ctx.app, {
        method: 'GET',
        url: '/health',
        headers: { 'x-request-id': 'trace-123' },
      });
      assert.equal(own.headers['x-request-id'], 'trace-123');
      const made = await call(ctx.app, { method: 'GET', url: '/v1/nope' });
      assert.match(String(made.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      const hostile = await call(ctx.app, {
        method: 'GET',
        url: '/health',
        headers: { 'x-request-id': 'a b\nc' },
      });
      assert.notEqual(hostile.headers['x-request-id'], 'a b\nc');
      const failed = await call(ctx.app, { method: 'POST', url: '/v1/projects', payload: {} });
      assert.ok(failed.headers['x-request-id']);
    });
  },
  { env: { CMS_BODY_LIMIT_BYTES: '4096' } },
);
