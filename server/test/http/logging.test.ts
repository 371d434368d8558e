import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newProject, PASSWORD } from '../helpers/factories.js';
import { captureLog } from '../helpers/log-capture.js';

const { lines, stream: logStream } = captureLog();

describeEachDb(
  'logging',
  (ctx) => {
    it('logs carry the request id and never a password, session token or key', async () => {
      lines.length = 0;
      const { project, admin } = await newProject(ctx.app);
      await call(ctx.app, {
        method: 'GET',
        url: '/v1/users',
        headers: { ...bearer(admin.token), 'x-cms-key': project.apiKey, 'x-request-id': 'req-log-1' },
      });
      await call(ctx.app, {
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: admin.email, password: 'wrong one' },
      });
      // Access lines are batched (written within ACCESS_FLUSH_MS): wait for the request's.
      for (let waited = 0; !lines.join('').includes('req-log-1') && waited < 5000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const all = lines.join('');
      assert.ok(
        all.includes('"requestId":"req-log-1"') || all.includes('"reqId":"req-log-1"'),
        'request id in logs',
      );
      for (const secret of [PASSWORD, 'wrong one', admin.token, project.apiKey]) {
        assert.ok(!all.includes(secret), `log leaked ${secret.slice(0, 8)}…`);
      }
    });
  },
  { env: { LOG_LEVEL: 'trace' }, logStream },
);
