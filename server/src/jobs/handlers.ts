import type { Db } from '../db/database.js';
import { publishedEntriesForSnapshot } from '../modules/content/published-pages.js';
import { callDeployHooks, fireDeployTriggers, triggersFromEvents } from '../modules/deploys/deploys.jobs.js';
import { dispatchEvents } from '../modules/events/events.jobs.js';
import { publishedObjectsForSnapshot } from '../modules/objects/objects.snapshot.js';
import { prunePreviewTokens } from '../modules/preview/preview.jobs.js';
import { loadSite } from '../modules/projects/site-cache.js';
import { computeSnapshotVersion, type SnapshotSources } from '../modules/snapshot/snapshot.service.js';
import { deliveriesFromEvents, deliverWebhooks } from '../modules/webhooks/webhooks.jobs.js';
import { pruneAttempts } from './prune.js';
import type { AttemptJob, SnapshotVersionOf, SweepJob } from './types.js';

/**
 * Every job the worker runs, in order. An explicit list: adding a job is a line here, and what the
 * worker does can be read in one place.
 * - sweeps (one transaction each): outbox events → webhook deliveries + deploy triggers (the events
 *   module dispatches, the consumers are listed here); due triggers → deploy calls; retention;
 *   expired preview tokens.
 * - attempt jobs (leased rows sent over HTTP, retried on the schedule): webhook deliveries, deploy calls.
 */
export const sweepJobs: readonly SweepJob[] = [
  dispatchEvents([deliveriesFromEvents, triggersFromEvents]),
  fireDeployTriggers,
  pruneAttempts,
  prunePreviewTokens,
];

// biome-ignore lint/suspicious/noExplicitAny: a list of jobs over different row and batch types
export const attemptJobs: readonly AttemptJob<any, any>[] = [deliverWebhooks, callDeployHooks];

/**
 * What a snapshot is made of, read fresh: the worker has no change bus to keep caches right. The
 * HTTP process wires the same sources in src/app.ts, the project through its site cache.
 */
export const freshSnapshotSources = (db: Db): SnapshotSources => ({
  project: (projectId) => loadSite(db, 'id', projectId),
  entries: (projectId) => publishedEntriesForSnapshot(db, projectId),
  objects: (projectId) => publishedObjectsForSnapshot(db, projectId),
});

/** The snapshot version (`sha256:…`) a GitHub repository dispatch call carries: published content and objects. */
export const snapshotVersionOf: SnapshotVersionOf = (db, projectId) =>
  computeSnapshotVersion(projectId, freshSnapshotSources(db));
