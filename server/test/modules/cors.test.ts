import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newSite, pageUrl } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

describeEachDb('CORS on publishable-key routes', (ctx) => {
  it('answers preflight for publishable-key routes only', async () => {
    const pre = await call(ctx.app, {
      method: 'OPTIONS',
      url: pageUrl('/'),
      headers: {
        origin: 'https://site.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-cms-key',
      },
    });
    assert.equal(pre.status, 200);
    assert.equal(pre.headers['access-control-allow-origin'], 'https://site.example');
    assert.match(String(pre.headers['access-control-allow-headers']), /x-cms-key/);
    assert.match(String(pre.headers['access-control-allow-headers']), /authorization/);
    assert.match(String(pre.headers['access-control-allow-methods']), /GET/);
    assert.match(String(pre.headers.vary), /Origin/);

    const sync = await call(ctx.app, {
      method: 'OPTIONS',
      url: '/v1/definitions/sync',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(sync.status, 200);

    const users = await call(ctx.app, {
      method: 'OPTIONS',
      url: '/v1/users',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(users.status, 404);
    assert.equal(users.headers['access-control-allow-origin'], undefined);
  });

  it('allows any origin while the project has no domains', async () => {
    const site = await newSite(ctx.app);
    const res = await call(ctx.app, {
      method: 'GET',
      url: '/v1/snapshot',
      headers: { ...site.key, origin: 'http://localhost:5173' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.match(String(res.headers['access-control-expose-headers']), /etag/);
    // A browser shows a script Retry-After only when it is exposed (the SDK honours it on 429/503).
    assert.match(String(res.headers['access-control-expose-headers']), /retry-after/);
  });

  it("enforces the project's domains on the actual response, and follows changes at once", async () => {
    const site = await newSite(ctx.app);
    const get = (origin: string) =>
      call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: { ...site.key, origin } });
    // Warm the caches before changing the domains: the change must still apply at once.
    await get('https://www.example.com');
    const patch = await call(ctx.app, {
      method: 'PATCH',
      url: `/v1/projects/${site.project.id}`,
      headers: bearer(site.admin.token),
      payload: { domains: ['www.example.com', 'localhost:5173'] },
    });
    assert.equal(patch.status, 200);

    for (const origin of ['https://www.example.com', 'http://localhost:5173', 'HTTPS://WWW.EXAMPLE.COM']) {
      const res = await get(origin);
      assert.equal(res.headers['access-control-allow-origin'], origin, origin);
      assert.match(String(res.headers.vary), /Origin/);
    }
    for (const origin of ['https://evil.example', 'https://example.com', 'http://localhost:3000', 'null']) {
      const res = await get(origin);
      assert.equal(res.status, 200);
      assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
      assert.match(String(res.headers.vary), /Origin/);
    }
  });

  it('never answers CORS on dashboard routes', async () => {
    const site = await newSite(ctx.app);
    const res = await call(ctx.app, {
      method: 'GET',
      url: '/v1/users',
      headers: { ...bearer(site.admin.token), origin: 'https://site.example' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  it('lets a page read a 401 (no project known, nothing revealed)', async () => {
    const res = await call(ctx.app, {
      method: 'GET',
      url: pageUrl('/'),
      headers: { 'x-cms-key': 'cms_pk_unknown', origin: 'https://site.example' },
    });
    assert.equal(res.status, 401);
    assert.equal(res.headers['access-control-allow-origin'], 'https://site.example');
  });
});
