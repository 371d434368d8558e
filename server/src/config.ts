import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EncryptionKey } from './shared/secret-box.js';

/**
 * The environment, parsed once at start into a frozen object (contract §5). Nothing else reads
 * `process.env`; tests build a Config by hand through `loadConfig({...})`.
 */
export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface Config {
  readonly version: string;
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly dataDir: string;
  readonly publicUrl: string;
  readonly sessionTtlSeconds: number;
  readonly mediaMaxBytes: number;
  readonly bodyLimitBytes: number;
  /** Time a client has to send a request's headers, and the whole request (body included). */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly webhookTimeoutMs: number;
  readonly webhookRetryScheduleMs: readonly number[];
  readonly deployDebounceMs: number;
  readonly allowPrivateHookTargets: boolean;
  /** The webhook/deploy worker (src/jobs/worker.ts): run inside the server, poll, batch, lease, retention. */
  readonly workerEnabled: boolean;
  readonly workerPollMs: number;
  readonly workerBatchSize: number;
  readonly workerLeaseMs: number;
  readonly deliveryRetentionDays: number;
  readonly logLevel: string;
  /** Trust X-Forwarded-For from the load balancer (needed for per-client login limits behind one). */
  readonly trustProxy: boolean;
  /** Unauthenticated project creations allowed per client address per hour. */
  readonly projectCreateLimitPerHour: number;
  /** Definitions syncs with the publishable key allowed per project per minute (contract §11). */
  readonly syncLimitPerMinute: number;
  /** Live streams (GET /v1/live): heartbeat interval, open streams per project per instance, unsent bytes per stream. */
  readonly liveHeartbeatMs: number;
  readonly liveMaxStreamsPerProject: number;
  readonly liveMaxBufferBytes: number;
  /**
   * CMS_ENCRYPTION_KEY: seals webhook and deploy-hook secrets. null: the key file in dataDir, created
   * at first start (src/shared/secret-keys.ts). Every instance on one database must share it.
   */
  readonly encryptionKey: EncryptionKey | null;
  /** CMS_ENCRYPTION_KEY_PREVIOUS: opens values sealed before a key rotation (never seals). */
  readonly encryptionKeyPrevious: EncryptionKey | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const DEFAULT_RETRY_SCHEDULE = '5000,300000,1800000,7200000,18000000,36000000,50400000,72000000,86400000';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  const int = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const dataDir = resolve(env.CMS_DATA_DIR || './data');

  let database: DatabaseConfig = { kind: 'sqlite', file: resolve(dataDir, 'cms.sqlite') };
  const url = env.DATABASE_URL;
  if (url) {
    if (/^postgres(ql)?:\/\//.test(url)) database = { kind: 'postgres', url };
    else if (url.startsWith('sqlite:')) {
      const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
      database = { kind: 'sqlite', file: file === ':memory:' ? file : resolve(file) };
    } else problems.push('DATABASE_URL must start with postgres://, postgresql:// or sqlite:');
  }

  let publicUrl = env.CMS_PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    const parsed = new URL(publicUrl);
    if (!/^https?:$/.test(parsed.protocol)) throw new Error('scheme');
    publicUrl = publicUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`CMS_PUBLIC_URL must be an http(s) URL (got "${publicUrl}")`);
  }

  const schedule = (env.CMS_WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE).split(',').map((s) => s.trim());
  const webhookRetryScheduleMs = schedule.map(Number);
  if (schedule.some((s) => s === '') || webhookRetryScheduleMs.some((n) => !Number.isInteger(n) || n < 0)) {
    problems.push('CMS_WEBHOOK_RETRY_SCHEDULE must be comma-separated non-negative integers (milliseconds)');
  }

  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  // Keys are never echoed in a problem message.
  const key = (name: string): EncryptionKey | null => {
    const raw = env[name];
    if (raw === undefined || raw === '') return null;
    const parsed = EncryptionKey.parse(raw);
    if (!parsed)
      problems.push(`${name} must be 32 bytes in base64 (e.g. the output of: openssl rand -base64 32)`);
    return parsed;
  };

  const webhookTimeoutMs = int('CMS_WEBHOOK_TIMEOUT_MS', 15000, 1);
  const config: Config = {
    version: packageVersion(),
    port,
    host,
    database,
    dataDir,
    publicUrl,
    sessionTtlSeconds: int('CMS_SESSION_TTL_SECONDS', 604800, 60),
    mediaMaxBytes: int('CMS_MEDIA_MAX_BYTES', 10 * 1024 * 1024, 1),
    bodyLimitBytes: int('CMS_BODY_LIMIT_BYTES', 5 * 1024 * 1024, 1024),
    headersTimeoutMs: int('CMS_HEADERS_TIMEOUT_MS', 30_000, 100, 3_600_000),
    requestTimeoutMs: int('CMS_REQUEST_TIMEOUT_MS', 120_000, 100, 3_600_000),
    webhookTimeoutMs,
    webhookRetryScheduleMs,
    deployDebounceMs: int('CMS_DEPLOY_DEBOUNCE_MS', 10000, 0),
    allowPrivateHookTargets: bool('CMS_ALLOW_PRIVATE_HOOK_TARGETS', false),
    workerEnabled: bool('CMS_WORKER_ENABLED', true),
    workerPollMs: int('CMS_WORKER_POLL_MS', 500, 1, 3_600_000),
    workerBatchSize: int('CMS_WORKER_BATCH_SIZE', 200, 1, 10_000),
    // A claim's lease must outlast one attempt (the timeout), else a slow send could be claimed twice.
    workerLeaseMs: int('CMS_WORKER_LEASE_MS', 0, 0) || webhookTimeoutMs + 60_000,
    deliveryRetentionDays: int('CMS_DELIVERY_RETENTION_DAYS', 30, 1, 36_500),
    logLevel,
    trustProxy: bool('CMS_TRUST_PROXY', false),
    projectCreateLimitPerHour: int('CMS_PROJECT_CREATE_LIMIT_PER_HOUR', 20, 1),
    syncLimitPerMinute: int('CMS_SYNC_LIMIT_PER_MINUTE', 120, 1),
    liveHeartbeatMs: int('CMS_LIVE_HEARTBEAT_MS', 15_000, 10, 15_000),
    liveMaxStreamsPerProject: int('CMS_LIVE_MAX_STREAMS_PER_PROJECT', 1000, 1, 1_000_000),
    liveMaxBufferBytes: int('CMS_LIVE_MAX_BUFFER_BYTES', 1024 * 1024, 1024),
    encryptionKey: key('CMS_ENCRYPTION_KEY'),
    encryptionKeyPrevious: key('CMS_ENCRYPTION_KEY_PREVIOUS'),
  };
  if (config.workerLeaseMs <= config.webhookTimeoutMs) {
    problems.push('CMS_WORKER_LEASE_MS must be longer than CMS_WEBHOOK_TIMEOUT_MS');
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    problems.push('CMS_HEADERS_TIMEOUT_MS must not be longer than CMS_REQUEST_TIMEOUT_MS');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** For entry points (server, worker, CLI): the config, or the list of problems on stderr and exit 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

let cachedVersion: string | undefined;
function packageVersion(): string {
  // src/config.ts and dist/config.js both sit one level below package.json.
  cachedVersion ??= JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
  return cachedVersion ?? '0.0.0';
}
