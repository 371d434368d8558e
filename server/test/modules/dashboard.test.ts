import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { describeEachDb, testConfig } from '../helpers/app.js';
import { call } from '../helpers/factories.js';

// A stand-in for Vite's output, so this suite does not depend on the dashboard having been built.
const built = mkdtempSync(join(tmpdir(), 'folio-dashboard-'));
mkdirSync(join(built, 'assets'));
writeFileSync(join(built, 'index.html'), '<!doctype html><title>Folio</title><div id="root"></div>');
writeFileSync(join(built, 'assets', 'index-AbC123.js'), 'console.log("dashboard")');
writeFileSync(join(built, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(tmpdir(), 'folio-dashboard-outside.txt'), 'secret');
after(() => {
  rmSync(built, { recursive: true, force: true });
  rmSync(join(tmpdir(), 'folio-dashboard-outside.txt'), { force: true });
});

describeEachDb(
  'dashboard at /admin',
  (ctx) => {
    it('serves index.html at /admin and /admin/, revalidated every time, under a CSP without inline script', async () => {
      for (const url of ['/admin', '/admin/', '/admin/index.html']) {
        const res = await call(ctx.app, { method: 'GET', url });
        assert.equal(res.status, 200, url);
        assert.match(res.headers['content-type'] as string, /^text\/html/);
        assert.match(res.body, /<div id="root">/);
        assert.equal(res.headers['cache-control'], 'no-cache');
        const csp = res.headers['content-security-policy'] as string;
        assert.match(csp, /script-src 'self'(;|$)/);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
        assert.match(csp, /frame-ancestors 'none'/);
        // The preview pane frames the project's site; nothing else (no data:, blob: or javascript:).
        assert.match(csp, /frame-src http: https:(;|$)/);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
      }
    });

    it("answers the app's own routes with index.html (client-side routing)", async () => {
      for (const url of ['/admin/p/prj_1/pages', '/admin/p/prj_1/pages/%2Fabout', '/admin/projects/new']) {
        const res = await call(ctx.app, { method: 'GET', url });
        assert.equal(res.status, 200, url);
        assert.match(res.body, /<div id="root">/);
        assert.equal(res.headers['cache-control'], 'no-cache');
      }
    });

    it('serves hashed assets as immutable and other files as no-cache', async () => {
      const js = await call(ctx.app, { method: 'GET', url: '/admin/assets/index-AbC123.js' });
      assert.equal(js.status, 200);
      assert.match(js.headers['content-type'] as string, /javascript/);
      assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.ok(js.headers.etag);
      const again = await call(ctx.app, {
        method: 'GET',
        url: '/admin/assets/index-AbC123.js',
        headers: { 'if-none-match': js.headers.etag as string },
      });
      assert.equal(again.status, 304);
      const icon = await call(ctx.app, { method: 'GET', url: '/admin/favicon.svg' });
      assert.equal(icon.status, 200);
      assert.equal(icon.headers['cache-control'], 'no-cache');
    });

    it('a missing asset is a 404, never index.html', async () => {
      for (const url of ['/admin/assets/index-old.js', '/admin/missing.css']) {
        const res = await call(ctx.app, { method: 'GET', url });
        assert.equal(res.status, 404, url);
        assert.doesNotMatch(String(res.body), /<div id="root">/);
      }
    });

    it('never serves a file outside the build', async () => {
      for (const url of [
        '/admin/../folio-dashboard-outside.txt',
        '/admin/%2e%2e/folio-dashboard-outside.txt',
        '/admin/assets/%2e%2e/%2e%2e/folio-dashboard-outside.txt',
      ]) {
        const res = await call(ctx.app, { method: 'GET', url });
        assert.notEqual(res.body, 'secret', url);
      }
    });

    it('leaves the API alone: /health, /v1 and the OpenAPI document', async () => {
      assert.equal((await call(ctx.app, { method: 'GET', url: '/health' })).status, 200);
      const unknown = await call(ctx.app, { method: 'GET', url: '/v1/nothing' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, 'not_found');
      const doc = await call(ctx.app, { method: 'GET', url: '/v1/openapi.json' });
      assert.ok(!Object.keys(doc.body.paths).some((p) => p.startsWith('/admin')));
    });
  },
  { env: { CMS_DASHBOARD_DIR: built } },
);

it('without a build, /admin answers a 404 page that says how to build it (the server still starts)', async () => {
  const missing = join(tmpdir(), `folio-no-dashboard-${process.pid}`);
  const config = testConfig({ CMS_DASHBOARD_DIR: missing });
  const database = await openDatabase({ kind: 'sqlite', file: ':memory:' });
  const app = await buildApp({ config, database });
  try {
    for (const url of ['/admin', '/admin/p/prj_1/pages']) {
      const res = await call(app, { method: 'GET', url });
      assert.equal(res.status, 404);
      assert.match(res.headers['content-type'] as string, /^text\/html/);
      assert.match(res.body, /dashboard is not built/);
      assert.match(res.body, /npm run build/);
    }
    assert.equal((await call(app, { method: 'GET', url: '/health' })).status, 200);
  } finally {
    await app.close();
    await database.close();
  }
});

it('CMS_DASHBOARD_DIR defaults to the workspace dashboard/dist, found from the server itself', () => {
  const config = loadConfig({ CMS_DATA_DIR: '/tmp/folio-config-test' });
  assert.equal(config.dashboardDir, new URL('../../../dashboard/dist', import.meta.url).pathname);
  assert.equal(loadConfig({ CMS_DASHBOARD_DIR: '/srv/folio-admin' }).dashboardDir, '/srv/folio-admin');
});
