import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './paths.js';
import { EncryptionKey } from './shared/secret-box.js';

/**
 * The environment, parsed once at start into a frozen object (contract §5). Nothing else reads
 * `process.env`; tests build a Config by hand through `loadConfig({...})`.
 */
export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  /** `preparedStatements`: name hot statements (src/db/pg-prepared.ts); default true. */
  | { kind: 'postgres'; url: string; preparedStatements?: boolean };

/**
 * Where media bytes live (CMS_STORAGE). `local`: files under CMS_DATA_DIR/media. `s3`: one bucket of an
 * S3-compatible store (AWS S3, Cloudflare R2, MinIO), shared by every instance.
 */
export type StorageConfig = { kind: 'local' } | S3Config;

export interface S3Config {
  kind: 's3';
  bucket: string;
  /** null: AWS S3 (the SDK finds the regional endpoint). */
  endpoint: string | null;
  region: string;
  /** null: the AWS SDK's default credential chain (AWS_* variables, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

export interface Config {
  readonly version: string;
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly dataDir: string;
  /** Base of media URLs without a project cdnUrl: CMS_PUBLIC_URL, else `http://HOST:PORT`. */
  readonly publicUrl: string;
  /** Whether CMS_PUBLIC_URL was set (else publicUrl is this instance's own address). */
  readonly publicUrlSet: boolean;
  readonly storage: StorageConfig;
  readonly sessionTtlSeconds: number;
  readonly mediaMaxBytes: number;
  /** Bytes of small media files kept in memory by the media store (0: none). */
  readonly mediaCacheBytes: number;
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
  /** CMS_ACTIVITY_RETENTION_DAYS: activity records older than this are deleted by the worker. */
  readonly activityRetentionDays: number;
  readonly logLevel: string;
  /** Trust X-Forwarded-For from the load balancer (needed for per-client login limits behind one). */
  readonly trustProxy: boolean;
  /** Unauthenticated project creations allowed per client address per hour. */
  readonly projectCreateLimitPerHour: number;
  /** Definitions syncs with the publishable key allowed per project per minute (contract §11). */
  readonly syncLimitPerMinute: number;
  /** CMS_MAX_PAGES_PER_PROJECT: pages one project may hold (contract §13; part one had 1000). */
  readonly maxPagesPerProject: number;
  /**
   * CMS_RESOLVE_MAX_BYTES: the JSON the resolved references of one answer may hold (contract §23;
   * src/modules/content/references.ts); past it a reference reads `{ id }`. 0 resolves none.
   */
  readonly resolveMaxBytes: number;
  /**
   * CMS_RULES_BUDGET_MS: CPU one request's rule checks may spend (contract §23; pattern compiles and
   * matches): beyond it a sync is 422 and a value counts as breaking its pattern.
   */
  readonly rulesBudgetMs: number;
  /**
   * Live streams (GET /v1/live): heartbeat interval, open streams per project per instance, open
   * streams per project per client address per instance (contract §16), unsent bytes per stream.
   */
  readonly liveHeartbeatMs: number;
  readonly liveMaxStreamsPerProject: number;
  readonly liveStreamsPerClient: number;
  readonly liveMaxBufferBytes: number;
  /**
   * CMS_ENCRYPTION_KEY: seals webhook and deploy-hook secrets. null: the key file in dataDir, created
   * at first start (src/shared/secret-keys.ts). Every instance on one database must share it.
   */
  readonly encryptionKey: EncryptionKey | null;
  /** CMS_ENCRYPTION_KEY_PREVIOUS: opens values sealed before a key rotation (never seals). */
  readonly encryptionKeyPrevious: EncryptionKey | null;
  /** CMS_DASHBOARD_DIR: the built dashboard served at /admin (default: the workspace's dashboard/dist). */
  readonly dashboardDir: string;
  /** CMS_METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <token>`; null: open. */
  readonly metricsToken: string | null;
  /** CMS_WORKER_PORT: the stand-alone worker's /health, /health/ready and /metrics; 0: none. */
  readonly workerPort: number;
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
    if (/^postgres(ql)?:\/\//.test(url)) {
      database = { kind: 'postgres', url, preparedStatements: bool('CMS_PG_PREPARED_STATEMENTS', true) };
    } else if (url.startsWith('sqlite:')) {
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

  // A header value: printable ASCII without spaces. Never echoed in a problem message.
  const metricsToken = env.CMS_METRICS_TOKEN || null;
  if (metricsToken !== null && !/^[\x21-\x7e]+$/.test(metricsToken)) {
    problems.push('CMS_METRICS_TOKEN must be printable ASCII characters without spaces');
  }

  const webhookTimeoutMs = int('CMS_WEBHOOK_TIMEOUT_MS', 15000, 1);
  const forcePathStyle = bool('CMS_S3_FORCE_PATH_STYLE', false);
  const config: Config = {
    version: packageVersion(),
    port,
    host,
    database,
    dataDir,
    publicUrl,
    publicUrlSet: Boolean(env.CMS_PUBLIC_URL),
    storage: storageConfig(env, forcePathStyle, problems),
    sessionTtlSeconds: int('CMS_SESSION_TTL_SECONDS', 604800, 60),
    mediaMaxBytes: int('CMS_MEDIA_MAX_BYTES', 10 * 1024 * 1024, 1),
    mediaCacheBytes: int('CMS_MEDIA_CACHE_BYTES', 32 * 1024 * 1024, 0),
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
    activityRetentionDays: int('CMS_ACTIVITY_RETENTION_DAYS', 365, 1, 36_500),
    logLevel,
    trustProxy: bool('CMS_TRUST_PROXY', false),
    projectCreateLimitPerHour: int('CMS_PROJECT_CREATE_LIMIT_PER_HOUR', 20, 1),
    syncLimitPerMinute: int('CMS_SYNC_LIMIT_PER_MINUTE', 120, 1),
    maxPagesPerProject: int('CMS_MAX_PAGES_PER_PROJECT', 20_000, 1, 1_000_000),
    // The contract's 5 MB as 5 MiB, like the body limit; at most 256 MiB, well below V8's longest string.
    resolveMaxBytes: int('CMS_RESOLVE_MAX_BYTES', 5 * 1024 * 1024, 0, 256 * 1024 * 1024),
    rulesBudgetMs: int('CMS_RULES_BUDGET_MS', 200, 1, 60_000),
    liveHeartbeatMs: int('CMS_LIVE_HEARTBEAT_MS', 15_000, 10, 15_000),
    liveMaxStreamsPerProject: int('CMS_LIVE_MAX_STREAMS_PER_PROJECT', 1000, 1, 1_000_000),
    liveStreamsPerClient: int('CMS_LIVE_STREAMS_PER_CLIENT', 20, 1, 1_000_000),
    liveMaxBufferBytes: int('CMS_LIVE_MAX_BUFFER_BYTES', 1024 * 1024, 1024),
    encryptionKey: key('CMS_ENCRYPTION_KEY'),
    encryptionKeyPrevious: key('CMS_ENCRYPTION_KEY_PREVIOUS'),
    // Found from the package, not the working directory: the workspace keeps dashboard/ beside server/.
    dashboardDir: env.CMS_DASHBOARD_DIR
      ? resolve(env.CMS_DASHBOARD_DIR)
      : fileURLToPath(new URL('../dashboard/dist', packageRoot)),
    metricsToken,
    workerPort: int('CMS_WORKER_PORT', 0, 0, 65535),
  };
  if (config.workerLeaseMs <= config.webhookTimeoutMs) {
    problems.push('CMS_WORKER_LEASE_MS must be longer than CMS_WEBHOOK_TIMEOUT_MS');
  }
  if (config.workerPort !== 0 && config.workerPort === config.port) {
    problems.push('CMS_WORKER_PORT must differ from PORT');
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    problems.push('CMS_HEADERS_TIMEOUT_MS must not be longer than CMS_REQUEST_TIMEOUT_MS');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

const S3_VARIABLES = [
  'CMS_S3_BUCKET',
  'CMS_S3_ENDPOINT',
  'CMS_S3_REGION',
  'CMS_S3_ACCESS_KEY_ID',
  'CMS_S3_SECRET_ACCESS_KEY',
  'CMS_S3_FORCE_PATH_STYLE',
];

/** CMS_STORAGE and the CMS_S3_* variables; problems are added to `problems`, never a secret in them. */
function storageConfig(env: Env, forcePathStyle: boolean, problems: string[]): StorageConfig {
  const kind = env.CMS_STORAGE || 'local';
  if (kind === 'local') {
    // A forgotten CMS_STORAGE=s3 would quietly keep each instance's media on its own disk.
    const stray = S3_VARIABLES.filter((name) => env[name]);
    if (stray.length > 0)
      problems.push(`${stray.join(', ')} set but CMS_STORAGE is local (set CMS_STORAGE=s3)`);
    return { kind: 'local' };
  }
  if (kind !== 's3') {
    problems.push(`CMS_STORAGE must be local or s3 (got "${kind}")`);
    return { kind: 'local' };
  }
  const bucket = env.CMS_S3_BUCKET ?? '';
  // S3's bucket naming rules (3–63 of a-z 0-9 . -), which R2 and MinIO share.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    problems.push(
      bucket === ''
        ? 'CMS_S3_BUCKET is required with CMS_STORAGE=s3'
        : `CMS_S3_BUCKET must be a bucket name (3-63 of a-z, 0-9, "." and "-"; got "${bucket}")`,
    );
  }
  let endpoint: string | null = env.CMS_S3_ENDPOINT || null;
  if (endpoint) {
    try {
      if (!/^https?:$/.test(new URL(endpoint).protocol)) throw new Error('scheme');
      endpoint = endpoint.replace(/\/+$/, '');
    } catch {
      problems.push(`CMS_S3_ENDPOINT must be an http(s) URL or empty for AWS (got "${endpoint}")`);
    }
  }
  const region = env.CMS_S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) {
    problems.push(`CMS_S3_REGION must be a region name such as us-east-1, or auto for R2 (got "${region}")`);
  }
  const accessKeyId = env.CMS_S3_ACCESS_KEY_ID || '';
  const secretAccessKey = env.CMS_S3_SECRET_ACCESS_KEY || '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    problems.push(
      'CMS_S3_ACCESS_KEY_ID and CMS_S3_SECRET_ACCESS_KEY go together (set both, or neither for the AWS default credentials)',
    );
  }
  return {
    kind: 's3',
    bucket,
    endpoint,
    region,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle,
  };
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
  cachedVersion ??= JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8')).version;
  return cachedVersion ?? '0.0.0';
}
