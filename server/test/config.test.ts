import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('config', () => {
  it('defaults match the contract', () => {
    const config = loadConfig({ CMS_DATA_DIR: '/tmp/folio-config-test' });
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.deepEqual(config.database, { kind: 'sqlite', file: '/tmp/folio-config-test/cms.sqlite' });
    assert.equal(config.publicUrl, 'http://127.0.0.1:3000');
    assert.equal(config.sessionTtlSeconds, 604800);
    assert.equal(config.mediaMaxBytes, 10485760);
    assert.equal(config.bodyLimitBytes, 5242880);
    assert.equal(config.headersTimeoutMs, 30000);
    assert.equal(config.requestTimeoutMs, 120000);
    assert.equal(config.webhookTimeoutMs, 15000);
    assert.equal(config.webhookRetryScheduleMs.length, 9);
    assert.equal(config.deployDebounceMs, 10000);
    assert.equal(config.allowPrivateHookTargets, false);
    assert.equal(config.logLevel, 'info');
    assert.ok(Object.isFrozen(config));
  });

  it('postgres:// selects PostgreSQL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/folio' });
    assert.deepEqual(config.database, { kind: 'postgres', url: 'postgres://u@db:5432/folio' });
  });

  it('a bad start lists every bad variable in one message', () => {
    assert.throws(
      () =>
        loadConfig({
          PORT: 'eighty',
          DATABASE_URL: 'mysql://x',
          CMS_SESSION_TTL_SECONDS: '-5',
          CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'maybe',
          CMS_WEBHOOK_RETRY_SCHEDULE: '5000,,x',
          LOG_LEVEL: 'loud',
        }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.problems.length, 6);
        for (const name of [
          'PORT',
          'DATABASE_URL',
          'CMS_SESSION_TTL_SECONDS',
          'CMS_ALLOW_PRIVATE_HOOK_TARGETS',
          'CMS_WEBHOOK_RETRY_SCHEDULE',
          'LOG_LEVEL',
        ]) {
          assert.ok(err.message.includes(name), name);
        }
        return true;
      },
    );
  });

  it('encryption keys must be 32 bytes of base64, and a bad one is never echoed', () => {
    const good = Buffer.alloc(32, 3).toString('base64');
    const config = loadConfig({ CMS_ENCRYPTION_KEY: good, CMS_ENCRYPTION_KEY_PREVIOUS: good });
    assert.match(config.encryptionKey?.id ?? '', /^[0-9a-f]{16}$/);
    assert.equal(config.encryptionKeyPrevious?.id, config.encryptionKey?.id);
    assert.equal(loadConfig({}).encryptionKey, null);
    assert.equal(loadConfig({}).syncLimitPerMinute, 120);
    const short = Buffer.alloc(16, 3).toString('base64');
    assert.throws(
      () => loadConfig({ CMS_ENCRYPTION_KEY: short, CMS_ENCRYPTION_KEY_PREVIOUS: 'nope' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.problems.length, 2);
        assert.ok(err.message.includes('CMS_ENCRYPTION_KEY must be 32 bytes'));
        assert.ok(err.message.includes('CMS_ENCRYPTION_KEY_PREVIOUS'));
        assert.ok(!err.message.includes(short) && !err.message.includes('nope'));
        return true;
      },
    );
  });
});
