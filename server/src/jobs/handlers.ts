import { callDeployHooks, fireDeployTriggers } from '../modules/deploys/deploys.jobs.js';
import { publishedObjectsForSnapshot } from '../modules/objects/objects.snapshot.js';
import { computeSnapshotVersion } from '../modules/snapshot/snapshot.service.js';
import { deliverWebhooks, dispatchEvents } from '../modules/webhooks/webhooks.jobs.js';
import { pruneAttempts } from './prune.js';
import type { AttemptJob, SnapshotVersionOf, SweepJob } from './types.js';

/**
 * Every job the worker runs, in order. An explicit list: adding a job is a line here, and what the
 * worker does can be read in one place.
 * - sweeps (one transaction each): outbox events → deliveries + deploy triggers; due triggers →
 *   deploy calls; retention.
 * - attempt jobs (leased rows sent over HTTP, retried on the schedule): webhook deliveries, deploy calls.
 */
export const sweepJobs: readonly SweepJob[] = [dispatchEvents, fireDeployTriggers, pruneAttempts];

// biome-ignore lint/suspicious/noExplicitAny: a list of jobs over different row and batch types
export const attemptJobs: readonly AttemptJob<any, any>[] = [deliverWebhooks, callDeployHooks];

/** The snapshot version (`sha256:…`) a GitHub repository dispatch call carries: published content and objects. */
export const snapshotVersionOf: SnapshotVersionOf = (db, projectId) =>
  computeSnapshotVersion(db, projectId, publishedObjectsForSnapshot);
