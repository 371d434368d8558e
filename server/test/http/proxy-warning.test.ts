import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { UNTRUSTED_FORWARDING } from '../../src/http/proxy-warning.js';
import { describeEachDb } from '../helpers/app.js';
import { captureLog } from '../helpers/log-capture.js';

const { lines, stream: logStream } = captureLog();

// Contract §16: behind a proxy without CMS_TRUST_PROXY every client shares one address; the server
// says so once, so the operator learns it before a locked-out sign-in does.
describeEachDb(
  'X-Forwarded-For without CMS_TRUST_PROXY',
  (ctx) => {
    let base = '';
    before(async () => {
      base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await ctx.app.close();
    });

    it('logs one warning for the process, at the first forwarded request', async () => {
      lines.length = 0; // the log stream is shared by both databases' suites
      const warnings = () => lines.filter((l) => l.includes(UNTRUSTED_FORWARDING.slice(0, 60)));
      await (await fetch(`${base}/health`)).arrayBuffer();
      assert.equal(warnings().length, 0);
      for (const address of ['203.0.113.7', '203.0.113.8']) {
        const res = await fetch(`${base}/v1/content/%2F`, {
          headers: { 'x-forwarded-for': address, 'x-cms-key': 'cms_pk_unknown' },
        });
        await res.arrayBuffer();
      }
      assert.equal(warnings().length, 1);
      assert.match(warnings()[0] ?? '', /"level":40|"level":"warn"/);
    });
  },
  { env: { LOG_LEVEL: 'warn' }, logStream },
);
