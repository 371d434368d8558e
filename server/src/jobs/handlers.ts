import type { Db } from '../db/database.js';
import {
  contentTargets,
  createContentOperations,
  publishedEntriesForSnapshot,
  snapshotEntriesIn,
} from '../modules/content/index.js';
import { declarationsOf, pageDefinitions } from '../modules/definitions/index.js';
import { callDeployHooks, fireDeployTriggers, triggersFromEvents } from '../modules/deploys/index.js';
import { publishedObjectsForSnapshot } from '../modules/objects/index.js';
import { prunePreviewTokens } from '../modules/preview/index.js';
import { loadSite } from '../modules/projects/index.js';
import { runDueSchedules } from '../modules/schedules/index.js';
import { computeSnapshotVersion, type SnapshotSources } from '../modules/snapshot/index.js';
import { mayPublish } from '../modules/users/index.js';
import { deliveriesFromEvents, deliverWebhooks } from '../modules/webhooks/index.js';
import { dispatchEvents, outbox, pruneActivityLog } from '../outbox/index.js';
import { pruneAttempts } from './prune.js';
import type { AttemptJob, SnapshotVersionOf, SweepJob } from './types.js';

/**
 * Every job the worker runs, in order. An explicit list: adding a job is a line here, and what the
 * worker does can be read in one place.
 * - sweeps (one transaction each): due schedules → publishes and unpublishes (first, so the events
 *   they write are dispatched in the same tick; what they need of content and users is handed over
 *   here, as app.ts does for the routes); outbox events → webhook deliveries + deploy triggers (the
 *   outbox dispatches, the consumers are listed here); due triggers → deploy calls; retention;
 *   expired preview tokens; old activity records.
 * - attempt jobs (leased rows sent over HTTP, retried on the schedule): webhook deliveries, deploy calls.
 */
/** What scheduled work runs of content's operations (each in a schedule's locale). */
const scheduledContent = (ops: ReturnType<typeof createContentOperations>) => ({
  publishEntryIn: ops.publishEntryIn,
  unpublishIn: ops.unpublishEntryIn,
  bulkPublishIn: ops.bulkPublishPageIn,
});

export const sweepJobs: readonly SweepJob[] = [
  runDueSchedules({
    content: scheduledContent(
      createContentOperations(outbox, {
        declarationsOf,
        // Read fresh: the worker has no change bus to keep a cache of them right.
        localesOf: async (reader, projectId) => (await loadSite(reader, 'id', projectId))?.locales ?? null,
      }),
    ),
    targets: contentTargets(pageDefinitions),
    mayPublish,
  }),
  dispatchEvents([deliveriesFromEvents, triggersFromEvents]),
  fireDeployTriggers,
  pruneAttempts,
  prunePreviewTokens,
  pruneActivityLog,
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
  entriesIn: (projectId, locales, codes) => snapshotEntriesIn(db, projectId, locales, codes),
  objects: (projectId) => publishedObjectsForSnapshot(db, projectId),
});

/** The snapshot version (`sha256:…`) a GitHub repository dispatch call carries: published content and objects. */
export const snapshotVersionOf: SnapshotVersionOf = (db, projectId) =>
  computeSnapshotVersion(projectId, freshSnapshotSources(db));
