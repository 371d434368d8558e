import type { Insertable } from 'kysely';
import { failedAttempt, freshAttempt } from '../../jobs/attempts.js';
import type { AttemptJob, SweepJob } from '../../jobs/types.js';
import { DEPLOY_TRIGGERS, type EventConsumer, type EventType } from '../../outbox/index.js';
import { newId } from '../../shared/ids.js';
import { type Locales, localeCodes } from '../../shared/locales.js';
import { SecretBoxError } from '../../shared/secret-box.js';
import { isoAt } from '../../shared/time.js';
import { signatureHeaders } from '../../shared/webhook-signing.js';
import { deployHooksOf, findDeployHook, loadSite } from '../projects/index.js';
import * as repo from './deploys.repository.js';
import type { DeployRow, DeploysTable } from './deploys.table.js';

/**
 * The locales an event changed (§17): a content event's or a locale removal's `data.locales`; every
 * locale (`*`) for what every locale holds (objects). Expanded against the project's locales when the
 * call is sent, and named only in a project with locales.
 */
function localesOfEvent(data: unknown): string[] {
  const locales = (data as { locales?: unknown } | null)?.locales;
  return Array.isArray(locales) ? locales.filter((l): l is string => typeof l === 'string') : ['*'];
}

/** The codes a call names: its locales with `*` as every locale the project has now, in the project's order. */
function changedLocales(stored: string | null, locales: Locales): string[] {
  const named = new Set(JSON.parse(stored ?? '["*"]') as string[]);
  const codes = localeCodes(locales);
  if (named.has('*')) return codes;
  // A removed locale's deploy names it too: what the site built for it must go.
  return [...codes.filter((c) => named.has(c)), ...[...named].filter((c) => !codes.includes(c)).sort()];
}

/** Outbox consumer: publishes fold into their projects' debounced deploy triggers. */
export const triggersFromEvents: EventConsumer = async (trx, events, { config }) => {
  const publishes = events
    .filter((e) => DEPLOY_TRIGGERS.includes(e.type as EventType))
    .map((e) => ({ projectId: e.projectId, type: e.type, at: e.createdAt, locales: localesOfEvent(e.data) }));
  await repo.recordPublishes(trx, publishes, config.deployDebounceMs);
};

/**
 * Fires due deploy triggers: in one transaction the trigger is taken off the table and one pending
 * call per deploy hook of the project is created; the calls are then attempted (and retried) like
 * webhook deliveries. A project without hooks just loses its trigger.
 */
export const fireDeployTriggers: SweepJob = {
  name: 'fire-deploy-triggers',
  everyMs: (config) => config.workerPollMs,
  async run({ db, config }, nowMs) {
    return db.transaction().execute(async (trx) => {
      const now = isoAt(nowMs);
      const triggers = await repo.takeDueTriggers(trx, config.workerBatchSize, now);
      if (triggers.length === 0) return 0;
      const hooks = await deployHooksOf(
        trx,
        triggers.map((t) => t.projectId),
      );
      const calls: Insertable<DeploysTable>[] = [];
      for (const trigger of triggers) {
        for (const hook of hooks.filter((h) => h.projectId === trigger.projectId)) {
          calls.push({
            id: newId('dpl'),
            projectId: trigger.projectId,
            hookId: hook.id,
            hookType: hook.type,
            reasons: trigger.reasons,
            locales: trigger.locales,
            requestedAt: now,
            ...freshAttempt(now),
          });
        }
      }
      await repo.insertDeploys(trx, calls);
      return triggers.length;
    });
  },
};

/**
 * One deploy hook call. The hook is read at send time, so a changed URL or secret applies to
 * retries; a hook removed since the trigger fired ends the call as failed.
 * - generic: `{ type: "deploy.requested", projectId, reasons, requestedAt }`, signed like a webhook
 *   (webhook-id = the deploy id) when the hook has a secret;
 * - github_repository_dispatch: the repository `dispatches` API with the token as Bearer and the
 *   snapshot version at the time of the call.
 */
export const callDeployHooks: AttemptJob<DeployRow, undefined> = {
  name: 'call-deploy-hooks',
  table: 'deploys',
  // Deploy calls are few (one per hook per debounced burst): each reads its hook when attempted.
  prepare: async () => undefined,
  async attempt({ db, client, secrets, snapshotVersion }, call) {
    const hook = await findDeployHook(db, call.projectId, call.hookId);
    if (!hook) return failedAttempt('deploy hook was removed', { final: true });
    let secret: string | null;
    try {
      secret = hook.secret === null ? null : secrets.open(hook.secret);
    } catch (err) {
      // Sent nothing; retried on the schedule, so an instance with the right key can send it.
      if (err instanceof SecretBoxError)
        return failedAttempt(`deploy hook secret cannot be decrypted: ${err.message}`);
      throw err;
    }
    if (hook.type === 'github_repository_dispatch') {
      const version = await snapshotVersion(db, call.projectId);
      return client.post({
        url: hook.url,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${secret ?? ''}`,
          'x-github-api-version': '2022-11-28',
        },
        body: JSON.stringify({
          event_type: 'cms-publish',
          client_payload: { projectId: call.projectId, version },
        }),
      });
    }
    const locales = (await loadSite(db, 'id', call.projectId))?.locales ?? null;
    const body = JSON.stringify({
      type: 'deploy.requested',
      projectId: call.projectId,
      reasons: JSON.parse(call.reasons) as string[],
      ...(locales && { locales: changedLocales(call.locales, locales) }),
      requestedAt: call.requestedAt,
    });
    return client.post({
      url: hook.url,
      headers: secret ? signatureHeaders(secret, call.id, body) : {},
      body,
    });
  },
};
