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
    assert.equal(config.mediaCacheBytes, 32 * 1024 * 1024);
    assert.equal(config.bodyLimitBytes, 5242880);
    assert.equal(config.headersTimeoutMs, 30000);
    assert.equal(config.requestTimeoutMs, 120000);
    assert.equal(config.webhookTimeoutMs, 15000);
    assert.equal(config.webhookRetryScheduleMs.length, 9);
    assert.equal(config.deployDebounceMs, 10000);
    assert.equal(config.allowPrivateHookTargets, false);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.metricsToken, null);
    assert.equal(config.workerPort, 0);
    assert.ok(Object.isFrozen(config));
  });

  it('CMS_LIVE_STREAMS_PER_CLIENT: 20 streams per client by default, at least 1', () => {
    assert.equal(loadConfig({}).liveStreamsPerClient, 20);
    assert.equal(loadConfig({ CMS_LIVE_STREAMS_PER_CLIENT: '3' }).liveStreamsPerClient, 3);
    for (const bad of ['0', '-1', 'many']) {
      assert.throws(
        () => loadConfig({ CMS_LIVE_STREAMS_PER_CLIENT: bad }),
        (err: unknown) => err instanceof ConfigError && err.message.includes('CMS_LIVE_STREAMS_PER_CLIENT'),
      );
    }
  });

  it('CMS_METRICS_TOKEN and CMS_WORKER_PORT: a token is a header value, never echoed; the port differs from PORT', () => {
    const config = loadConfig({ CMS_METRICS_TOKEN: 's3cret-token', CMS_WORKER_PORT: '9464' });
    assert.equal(config.metricsToken, 's3cret-token');
    assert.equal(config.workerPort, 9464);
    assert.throws(
      () => loadConfig({ CMS_METRICS_TOKEN: 'two words', CMS_WORKER_PORT: '3000' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.problems.length, 2);
        assert.match(err.message, /CMS_METRICS_TOKEN must be printable ASCII/);
        assert.match(err.message, /CMS_WORKER_PORT must differ from PORT/);
        assert.doesNotMatch(err.message, /two words/);
        return true;
      },
    );
    assert.throws(
      () => loadConfig({ CMS_WORKER_PORT: '70000' }),
      /CMS_WORKER_PORT must be an integer from 0 to 65535/,
    );
  });

  it('postgres:// selects PostgreSQL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/folio' });
    assert.deepEqual(config.database, {
      kind: 'postgres',
      url: 'postgres://u@db:5432/folio',
      preparedStatements: true,
    });
    const unprepared = loadConfig({ DATABASE_URL: 'postgres://db/f', CMS_PG_PREPARED_STATEMENTS: 'false' });
    assert.equal(unprepared.database.kind === 'postgres' && unprepared.database.preparedStatements, false);
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'postgres://db/f', CMS_PG_PREPARED_STATEMENTS: 'sometimes' }),
      /CMS_PG_PREPARED_STATEMENTS must be true or false/,
    );
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

  it('CMS_RESOLVE_MAX_BYTES defaults to 5 MiB and takes 0 up to 256 MiB', () => {
    assert.equal(loadConfig({}).resolveMaxBytes, 5 * 1024 * 1024);
    assert.equal(loadConfig({ CMS_RESOLVE_MAX_BYTES: '0' }).resolveMaxBytes, 0);
    assert.equal(loadConfig({ CMS_RESOLVE_MAX_BYTES: '20000' }).resolveMaxBytes, 20_000);
    for (const bad of ['-1', '1.5', 'five', String(256 * 1024 * 1024 + 1)])
      assert.throws(() => loadConfig({ CMS_RESOLVE_MAX_BYTES: bad }), ConfigError);
  });

  it('encryption keys must be 32 bytes of base64, and a bad one is never echoed', () => {
    const good = Buffer.alloc(32, 3).toString('base64');
    const config = loadConfig({ CMS_ENCRYPTION_KEY: good, CMS_ENCRYPTION_KEY_PREVIOUS: good });
    assert.match(config.encryptionKey?.id ?? '', /^[0-9a-f]{16}$/);
    assert.equal(config.encryptionKeyPrevious?.id, config.encryptionKey?.id);
    assert.equal(loadConfig({}).encryptionKey, null);
    assert.equal(loadConfig({}).syncLimitPerMinute, 120);
    assert.equal(loadConfig({}).maxPagesPerProject, 20_000);
    assert.equal(loadConfig({ CMS_MAX_PAGES_PER_PROJECT: '50' }).maxPagesPerProject, 50);
    assert.throws(() => loadConfig({ CMS_MAX_PAGES_PER_PROJECT: '0' }), ConfigError);
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

  it('media storage is local by default; s3 takes a bucket, an optional endpoint and keys in pairs', () => {
    assert.deepEqual(loadConfig({}).storage, { kind: 'local' });
    assert.equal(loadConfig({}).publicUrlSet, false);
    assert.equal(loadConfig({ CMS_PUBLIC_URL: 'https://cms.example.com' }).publicUrlSet, true);
    assert.deepEqual(loadConfig({ CMS_STORAGE: 's3', CMS_S3_BUCKET: 'site-media' }).storage, {
      kind: 's3',
      bucket: 'site-media',
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
    });
    const r2 = loadConfig({
      CMS_STORAGE: 's3',
      CMS_S3_BUCKET: 'media',
      CMS_S3_ENDPOINT: 'https://0123abcd.r2.cloudflarestorage.com/',
      CMS_S3_REGION: 'auto',
      CMS_S3_ACCESS_KEY_ID: 'id',
      CMS_S3_SECRET_ACCESS_KEY: 'secret',
      CMS_S3_FORCE_PATH_STYLE: 'true',
    });
    assert.deepEqual(r2.storage, {
      kind: 's3',
      bucket: 'media',
      endpoint: 'https://0123abcd.r2.cloudflarestorage.com',
      region: 'auto',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('a bad storage setting stops the start, each variable named and no secret echoed', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        assert.ok(err instanceof ConfigError);
        return err.problems;
      }
      return [];
    };
    assert.deepEqual(problemsOf({ CMS_STORAGE: 's3' }), ['CMS_S3_BUCKET is required with CMS_STORAGE=s3']);
    assert.match(problemsOf({ CMS_STORAGE: 'gcs' })[0] ?? '', /CMS_STORAGE must be local or s3/);
    const bad = problemsOf({
      CMS_STORAGE: 's3',
      CMS_S3_BUCKET: 'Bad_Bucket',
      CMS_S3_ENDPOINT: 'ftp://minio:9000',
      CMS_S3_REGION: 'EU West',
      CMS_S3_SECRET_ACCESS_KEY: 'top-secret-value',
      CMS_S3_FORCE_PATH_STYLE: 'yes',
    });
    assert.equal(bad.length, 5, bad.join('\n'));
    for (const name of [
      'CMS_S3_BUCKET',
      'CMS_S3_ENDPOINT',
      'CMS_S3_REGION',
      'CMS_S3_ACCESS_KEY_ID',
      'CMS_S3_FORCE_PATH_STYLE',
    ]) {
      assert.ok(
        bad.some((p) => p.includes(name)),
        name,
      );
    }
    assert.ok(!bad.join(' ').includes('top-secret-value'));
    // S3 settings without CMS_STORAGE=s3 would leave each instance's media on its own disk.
    assert.deepEqual(problemsOf({ CMS_S3_BUCKET: 'media', CMS_S3_ENDPOINT: 'http://127.0.0.1:9000' }), [
      'CMS_S3_BUCKET, CMS_S3_ENDPOINT set but CMS_STORAGE is local (set CMS_STORAGE=s3)',
    ]);
  });
});
