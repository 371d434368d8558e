import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isBlockedAddress, vetTarget } from '../../src/shared/hook-targets.js';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';
import { startReceiver } from '../helpers/hooks.js';

it('classifies addresses: private, loopback, link-local, CGNAT, multicast and mapped forms are refused', () => {
  for (const address of [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:10.0.0.1',
    '64:ff9b::a00:1',
    // Issue 10: embedded or translated IPv4, tunnels and documentation ranges.
    '::ffff:0:7f00:1', // SIIT (RFC 6145) form of 127.0.0.1
    '2002:7f00:1::', // 6to4 wrapping 127.0.0.1
    '2002:a00:1::1', // 6to4 wrapping 10.0.0.1
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '64:ff9b:1::a00:1', // local-use NAT64 (RFC 8215)
    '::7f00:1', // deprecated IPv4-compatible
    '192.0.2.1', // TEST-NET-1
    '198.51.100.7', // TEST-NET-2
    '203.0.113.9', // TEST-NET-3
    '198.18.0.1', // benchmarking
    '2001:db8::1', // IPv6 documentation
    '3fff::1', // IPv6 documentation (RFC 9637)
    '100::1', // discard-only
    'fec0::1', // deprecated site-local
    '0x7f.1', // not an address Node connects to as written
  ]) {
    assert.equal(isBlockedAddress(address), true, address);
  }
  for (const address of [
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ]) {
    assert.equal(isBlockedAddress(address), false, address);
  }
});

it('vets URLs: scheme, credentials, names resolving to loopback', async () => {
  assert.equal((await vetTarget('ftp://example.com/', false)).ok, false);
  assert.equal((await vetTarget('http://user:pw@8.8.8.8/', false)).ok, false);
  assert.equal((await vetTarget('http://localhost:8080/x', false)).ok, false);
  assert.equal((await vetTarget('http://[::ffff:127.0.0.1]/x', false)).ok, false);
  const ok = await vetTarget('https://8.8.8.8/hook', false);
  assert.ok(ok.ok && ok.address === '8.8.8.8');
  assert.equal((await vetTarget('http://localhost:8080/x', true)).ok, true);
});

describeEachDb(
  'webhook targets (outbound safety)',
  (ctx) => {
    const refused = [
      'http://127.0.0.1:9/hook',
      'http://localhost:9/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:7f00:1]/hook',
      'http://10.0.0.5/hook',
      'http://172.16.3.4/hook',
      'http://192.168.0.10/hook',
      'http://100.64.1.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://224.0.0.1/hook',
      'http://[::ffff:0:7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'http://192.0.2.1/hook',
      'http://[2001:db8::1]/hook',
    ];

    it('refuses private and loopback targets at save (400), for webhooks and deploy hooks', async () => {
      const { project, admin } = await newProject(ctx.app);
      for (const url of refused) {
        const res = await call(ctx.app, {
          method: 'POST',
          url: '/v1/webhooks',
          headers: bearer(admin.token),
          payload: { url, events: ['*'] },
        });
        assert.equal(res.status, 400, url);
        assert.equal(res.body.error.code, 'validation_failed');
        assert.equal(res.body.error.details[0].path, 'body.url');
      }
      const ok = await call(ctx.app, {
        method: 'POST',
        url: '/v1/webhooks',
        headers: bearer(admin.token),
        payload: { url: 'https://hooks.example.com/folio', events: ['*'] },
      });
      assert.equal(ok.status, 201);
      const patch = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/webhooks/${ok.body.data.id}`,
        headers: bearer(admin.token),
        payload: { url: 'http://169.254.169.254/' },
      });
      assert.equal(patch.status, 400);

      const hooks = await call(ctx.app, {
        method: 'PATCH',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
        payload: {
          deployHooks: [
            { id: 'ok', type: 'generic', url: 'https://api.netlify.com/build_hooks/abc' },
            { id: 'bad', type: 'generic', url: 'http://[::ffff:169.254.169.254]/' },
          ],
        },
      });
      assert.equal(hooks.status, 400);
      assert.equal(hooks.body.error.details[0].path, 'body.deployHooks[1].url');
      const unchanged = await call(ctx.app, {
        method: 'GET',
        url: `/v1/projects/${project.id}`,
        headers: bearer(admin.token),
      });
      assert.deepEqual(unchanged.body.data.deployHooks, []);
    });

    it('refuses at send too: an attempt to a target that became private fails and never connects', async () => {
      const { admin } = await newProject(ctx.app);
      const receiver = await startReceiver();
      try {
        const created = await call(ctx.app, {
          method: 'POST',
          url: '/v1/webhooks',
          headers: bearer(admin.token),
          payload: { url: 'https://hooks.example.com/folio', events: ['*'] },
        });
        // Stands in for a DNS answer that changed after save: the stored target now points at loopback.
        await ctx.db
          .updateTable('webhooks')
          .set({ url: `${receiver.url}/internal` })
          .where('id', '=', created.body.data.id)
          .execute();
        const res = await call(ctx.app, {
          method: 'POST',
          url: `/v1/webhooks/${created.body.data.id}/test`,
          headers: bearer(admin.token),
        });
        assert.equal(res.body.data.status, 'failed');
        assert.match(res.body.data.error, /refused target/);
        assert.equal(receiver.received.length, 0);
      } finally {
        await receiver.close();
      }
    });
  },
  { env: { CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'false' } },
);
