import { unavailable } from '../../shared/errors.js';

/**
 * Readiness (GET /health/ready): may this process take traffic now? Liveness stays GET /health
 * (contract §1: the process answers and its database does). Ready means, in addition, that every
 * migration of this build is applied, that the change bus is live (PostgreSQL: the LISTEN
 * connection is up; without it caches do not serve and other instances' changes are missed), and
 * that the media store answers. The worker's port asks only what the worker uses (no change bus,
 * no media store).
 *
 * Load balancers poll it every few seconds on every instance, so it stays cheap: one `select 1`,
 * the bus's flag, one access(2) on the media directory; the migrations count runs only until it
 * first succeeds (a build's migrations, once applied, stay applied). Each check is cut off after
 * TIMEOUT_MS: a database that hangs (rather than refuses) must not hold the poll past the balancer's
 * own timeout, and a slow answer is as bad as none for a target that is about to take traffic.
 */
export type CheckName = 'database' | 'migrations' | 'changeBus' | 'mediaStorage';
/** `skipped`: not asked, because what it depends on failed (migrations need the database). */
export type CheckState = 'ok' | 'failed' | 'skipped';

export interface ReadinessChecks {
  /** A round trip to the database. */
  database(): Promise<void>;
  /** True when every migration of this build is applied. */
  migrations(): Promise<boolean>;
  /** False while the change bus may miss other instances' changes (absent: the process has none). */
  changeBus?: () => boolean;
  /** Rejects when the media store cannot be used (absent: the process does not serve media). */
  mediaStorage?: () => Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Partial<Record<CheckName, CheckState>>;
  /** The checks that failed, in a fixed order. */
  failed: CheckName[];
}

export interface ReadinessLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

const TIMEOUT_MS = 2000;
/** What a not-ready answer suggests in Retry-After: about one balancer polling interval. */
export const NOT_READY_RETRY_SECONDS = 5;

export function createReadiness(checks: ReadinessChecks, log: ReadinessLog, timeoutMs = TIMEOUT_MS) {
  let migrated = false;
  // Logged when the answer changes, not on every poll: an outage polled every 2 s by several
  // balancers would otherwise write a line per poll.
  let lastFailed = '';

  async function run(name: CheckName, check: () => Promise<unknown>, errors: Map<CheckName, string>) {
    try {
      const ok = await within(check(), timeoutMs);
      if (ok === false) errors.set(name, 'not applied');
      return ok === false ? 'failed' : 'ok';
    } catch (err) {
      errors.set(name, (err as Error)?.message ?? String(err));
      return 'failed';
    }
  }

  return async function check(): Promise<ReadinessReport> {
    const errors = new Map<CheckName, string>();
    const states: ReadinessReport['checks'] = {};
    const storage = checks.mediaStorage;
    const [database, media] = await Promise.all([
      run('database', checks.database, errors),
      storage ? run('mediaStorage', storage, errors) : undefined,
    ]);
    states.database = database;
    if (migrated) states.migrations = 'ok';
    else if (database !== 'ok') states.migrations = 'skipped';
    else {
      states.migrations = await run('migrations', checks.migrations, errors);
      migrated = states.migrations === 'ok';
    }
    if (checks.changeBus) {
      states.changeBus = checks.changeBus() ? 'ok' : 'failed';
      if (states.changeBus === 'failed') errors.set('changeBus', 'not listening');
    }
    if (media) states.mediaStorage = media;

    const failed = (Object.keys(states) as CheckName[]).filter((name) => states[name] === 'failed');
    const key = failed.join(',');
    if (key !== lastFailed) {
      if (failed.length > 0) log.warn({ failed: Object.fromEntries(errors) }, `not ready: ${key} failed`);
      else log.info({}, 'ready again');
      lastFailed = key;
    }
    return { ready: failed.length === 0, checks: states, failed };
  };
}

export type Readiness = ReturnType<typeof createReadiness>;

/** The 503 of a report that is not ready: the error envelope, naming what failed. */
export function notReady(report: ReadinessReport) {
  return unavailable(NOT_READY_RETRY_SECONDS, `Not ready: ${report.failed.join(', ')} failed.`, {
    checks: report.checks,
  });
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
