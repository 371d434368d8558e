/**
 * What webhook deliveries and deploy hook calls have in common: a row that is attempted, leased
 * while an attempt is in flight, and retried on the schedule. Pure logic only; SQL lives in
 * src/jobs/queue.ts and the dialect-specific claim in src/db/dialect/claim.ts.
 */
export type AttemptStatus = 'pending' | 'succeeded' | 'failed';

export interface AttemptColumns {
  id: string;
  projectId: string;
  status: AttemptStatus;
  attemptCount: number;
  /** How many waits of the retry schedule this row has used. */
  scheduleStep: number;
  nextAttemptAt: string | null;
  /** Lease: while in the future, an attempt is in flight somewhere; a crashed claim expires. */
  lockedUntil: string | null;
  lastAttemptAt: string | null;
  responseCode: number | null;
  durationMs: number | null;
  error: string | null;
  /** The first bytes of the receiver's answer, for the log (truncated). */
  responseBody: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The columns of a row that has not been attempted yet: due at once, no lease, no outcome. */
export function freshAttempt(now: string) {
  return {
    status: 'pending' as const,
    attemptCount: 0,
    scheduleStep: 0,
    nextAttemptAt: now,
    lockedUntil: null,
    lastAttemptAt: null,
    responseCode: null,
    durationMs: null,
    error: null,
    responseBody: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** What an API response shows of an attempted row (the lease and schedule position stay internal). */
export function attemptOutcome(row: AttemptColumns) {
  return {
    status: row.status,
    responseCode: row.responseCode,
    attemptCount: row.attemptCount,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.nextAttemptAt,
    durationMs: row.durationMs,
    error: row.error,
    responseBody: row.responseBody,
    createdAt: row.createdAt,
  };
}

/** The result of one HTTP attempt, as the outbound client reports it. */
export interface AttemptResult {
  ok: boolean;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  /** Seconds from a Retry-After header on 429/503. */
  retryAfterSeconds: number | null;
  /** No retry makes sense (e.g. the webhook was deactivated meanwhile): fail at once. */
  final?: boolean;
  /** The host attempted (`host[:port]`), for the log; never the path, which may hold a secret. */
  target?: string;
}

/** Attempts a row gets in all: the first plus one per wait of the schedule. */
export const attemptsAllowed = (scheduleMs: readonly number[]): number => scheduleMs.length + 1;

/**
 * The log line of a failed attempt: where, what went wrong, and how many tries are left. One per
 * attempt, so an operator sees a failing receiver without reading the API's delivery log.
 */
export function failedAttemptLog(row: AttemptColumns, result: AttemptResult, scheduleMs: readonly number[]) {
  const attempt = row.attemptCount + 1;
  const of = result.final || result.responseCode === 410 ? attempt : attemptsAllowed(scheduleMs);
  const what = result.error ?? `answered ${result.responseCode}`;
  return {
    fields: {
      id: row.id,
      projectId: row.projectId,
      target: result.target ?? null,
      status: result.responseCode,
      error: result.error,
      attempt,
      of,
    },
    message: `attempt ${attempt} of ${of} to ${result.target ?? 'an unknown target'} failed: ${what}`,
  };
}

// failedAttempt lives with the HTTP client that makes most of them (shared/ takes no value from jobs/).
export { failedAttempt } from '../shared/hook-http.js';

/**
 * 410 Gone: the receiver says the endpoint is gone for good (Standard Webhooks). The row is never
 * retried (queue.ts) and a webhook answering it is deactivated (webhooks.jobs.ts).
 */
export const isGone = (result: AttemptResult): boolean => result.responseCode === 410;

/** Longest Retry-After we honour: a receiver cannot park a delivery for more than a day. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Where a row goes after a failed attempt: back to `pending` after the next wait of the schedule
 * (plus up to 20% jitter, so retries of many deliveries spread out instead of arriving in a herd —
 * jitter is only ever added, so a wait is never shorter than the schedule says), or `failed` once
 * the schedule is used up. A 429/503 Retry-After lengthens the wait, never shortens it.
 */
export function afterFailure(
  scheduleMs: readonly number[],
  scheduleStep: number,
  retryAfterSeconds: number | null,
  now: number,
  random: () => number = Math.random,
): { status: 'pending'; nextAttemptAt: number; scheduleStep: number } | { status: 'failed' } {
  const wait = scheduleMs[scheduleStep];
  if (wait === undefined) return { status: 'failed' };
  const jittered = Math.round(wait * (1 + 0.2 * random()));
  const floor = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS);
  return {
    status: 'pending',
    nextAttemptAt: now + Math.max(jittered, floor),
    scheduleStep: scheduleStep + 1,
  };
}
