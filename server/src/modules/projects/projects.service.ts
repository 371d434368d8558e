import type { Db, Tx } from '../../db/database.js';
import { type ChangeBus, type Changed, TOPICS, transactionWithChanges } from '../../db/dialect/change-bus.js';
import { fromConstraint } from '../../db/dialect/constraints.js';
import type { Outbox } from '../../outbox/index.js';
import { conflict, invalidCredentials, notFound, validationFailed } from '../../shared/errors.js';
import { hookUrlProblem } from '../../shared/hook-targets.js';
import { newId } from '../../shared/ids.js';
import { checkLocales, type Locales, localesText, parseLocales } from '../../shared/locales.js';
import { hashPassword, normalizeEmail, verifyPassword } from '../../shared/passwords.js';
import type { UserActor } from '../../shared/principals.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { randomToken } from '../../shared/secrets.js';
import { isoNow } from '../../shared/time.js';
import type { Role } from '../users/index.js';
import * as users from '../users/index.js';
import { previewUrlProblem } from './preview-url.js';
import * as repo from './projects.repository.js';
import type { DefinitionSyncMode, DeployHookRow, ProjectRow } from './projects.table.js';

export type DeployHookType = 'generic' | 'github_repository_dispatch';

export interface DeployHook {
  id: string;
  type: DeployHookType;
  url: string;
  hasSecret: boolean;
}

export interface Project {
  id: string;
  name: string;
  apiKey: string;
  domains: string[];
  cdnUrl: string | null;
  previewUrl: string | null;
  deployHooks: DeployHook[];
  bakeEnabled: boolean;
  definitionSync: DefinitionSyncMode;
  locales: Locales | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeployHookInput {
  id: string;
  type: DeployHookType;
  url: string;
  /** Omitted: keep the stored secret of the hook with this id. null: clear it. */
  secret?: string | null;
}

export interface ProjectPatch {
  name?: string;
  domains?: string[];
  cdnUrl?: string | null;
  previewUrl?: string | null;
  bakeEnabled?: boolean;
  definitionSync?: DefinitionSyncMode;
  deployHooks?: DeployHookInput[];
  locales?: { default: string; available: { code: string; fallback?: string | null }[] } | null;
}

const newApiKey = () => randomToken('cms_pk_', 24);

function toProject(row: ProjectRow, hooks: DeployHookRow[]): Project {
  return {
    id: row.id,
    name: row.name,
    apiKey: row.apiKey,
    domains: JSON.parse(row.domains) as string[],
    cdnUrl: row.cdnUrl,
    previewUrl: row.previewUrl,
    deployHooks: hooks
      .filter((h) => h.projectId === row.id)
      .map((h) => ({ id: h.id, type: h.type as DeployHookType, url: h.url, hasSecret: h.secret !== null })),
    bakeEnabled: row.bakeEnabled === 1,
    definitionSync: row.definitionSync,
    locales: parseLocales(row.locales),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Standard Webhooks secrets: `whsec_` + base64 of 24 to 64 random bytes. */
function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith('whsec_')) return false;
  const body = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return false;
  const bytes = Buffer.from(body, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/**
 * Checks a replacement list of deploy hooks and carries stored secrets over to hooks sent without
 * one. Secrets are checked in clear and stored sealed (src/shared/secret-box.ts); a kept secret
 * keeps its sealed value as it is.
 */
function mergeDeployHooks(
  projectId: string,
  input: DeployHookInput[],
  stored: DeployHookRow[],
  now: string,
  secrets: SecretBox,
): DeployHookRow[] {
  const seen = new Set<string>();
  return input.map((hook, position) => {
    if (seen.has(hook.id)) throw conflict(`Deploy hook id "${hook.id}" is used twice.`);
    seen.add(hook.id);
    const previous = stored.find((h) => h.id === hook.id);
    const kept = hook.secret === undefined ? (previous?.secret ?? null) : null;
    // The kept secret is opened only to check it against a changed type (generic needs whsec_).
    const secret = hook.secret === undefined ? (kept === null ? null : secrets.open(kept)) : hook.secret;
    const path = `body.deployHooks[${position}].secret`;
    if (hook.type === 'generic' && secret !== null && !isWebhookSecret(secret)) {
      throw validationFailed('A generic deploy hook secret must be a Standard Webhooks secret.', [
        { path, message: 'must be "whsec_" followed by base64 of 24 to 64 bytes' },
      ]);
    }
    if (hook.type === 'github_repository_dispatch' && !secret) {
      throw validationFailed('A GitHub repository dispatch hook needs a token as its secret.', [
        { path, message: 'is required for type github_repository_dispatch' },
      ]);
    }
    return {
      projectId,
      id: hook.id,
      type: hook.type,
      url: hook.url,
      secret: kept ?? (secret === null ? null : secrets.seal(secret)),
      position,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
  });
}

/** Refuses deploy hook URLs whose host resolves to a loopback/private/link-local/... address (400). */
async function checkDeployHookTargets(hooks: DeployHookInput[], allowPrivate: boolean): Promise<void> {
  const problems = await Promise.all(hooks.map((hook) => hookUrlProblem(hook.url, allowPrivate)));
  const details = problems.flatMap((message, position) =>
    message ? [{ path: `body.deployHooks[${position}].url`, message }] : [],
  );
  if (details.length > 0) throw validationFailed('A deploy hook URL is not an allowed target.', details);
}

/** How an activity summary names a setting: "en (default), fr (falls back to en)", or "none". */
const describeLocales = (locales: Locales | null): string =>
  locales === null
    ? 'none (one language)'
    : locales.available
        .map((l) => (l.fallback ? `${l.code} (falls back to ${l.fallback})` : `${l.code} (default)`))
        .join(', ');

/** A `locales` as sent, checked: the setting to store (400 with paths under body.locales otherwise). */
function checkedLocales(input: NonNullable<ProjectPatch['locales']>): Locales {
  const checked = checkLocales(input, 'body.locales');
  if ('problems' in checked) throw validationFailed('The locales are not valid.', checked.problems);
  return checked.locales;
}

function checkPreviewUrl(template: string | null | undefined): void {
  const problem = template ? previewUrlProblem(template) : null;
  if (problem) {
    throw validationFailed(`The preview URL ${problem}.`, [{ path: 'body.previewUrl', message: problem }]);
  }
}

/** `changes` tells every instance's caches (publishable key, domains, snapshot) that a project changed. */
/**
 * The 409 of a sign-up with an email that has an account and another password, in login's words
 * (contract §1: one answer for a wrong email and a wrong password): it must not say the account
 * exists. Also the route's documented example.
 */
export const wrongEmailOrPassword = () => conflict(invalidCredentials().message);

export function createProjectsService(
  db: Db,
  outbox: Outbox,
  changes: ChangeBus,
  options: {
    allowPrivate: boolean;
    secrets: SecretBox;
    /** Ends the project's preview tokens in the rotation's transaction (the preview module's). */
    endPreviewTokens: (trx: Tx, changed: Changed, projectId: string) => Promise<number>;
    /** The locales other than `except` that hold a value of some entry of the project (the content module's). */
    localesHoldingValues: (trx: Tx, projectId: string, except: string) => Promise<string[]>;
  },
) {
  const { recordActivity, enqueueEvent } = outbox;
  async function get(projectId: string): Promise<Project> {
    const row = await repo.findProject(db, projectId);
    if (!row) throw notFound('Project');
    return toProject(row, await repo.deployHooksOf(db, [projectId]));
  }

  /**
   * Stores a new `locales` setting after the checks that need the stored one (contract §14, §17): the
   * default never changes once set (409), and `null` is refused while another locale holds a value
   * (its translations would otherwise come back under whatever default is set next). A removed
   * locale's values stay, hidden; its removal moves deploy hooks (an internal event) and no webhook.
   * Readers of every instance drop what they hold of the project through the `project` and `snapshot`
   * topics.
   */
  async function changeLocales(trx: Tx, changed: Changed, projectId: string, next: Locales | null) {
    const stored = await repo.lockedLocalesOf(trx, projectId);
    if (!stored) throw notFound('Project');
    const current = parseLocales(stored.locales);
    if (current && next && next.default !== current.default) {
      throw conflict(
        `The default locale is "${current.default}" and cannot change once set: content written without a locale belongs to it.`,
      );
    }
    if (current && next === null) {
      const held = await options.localesHoldingValues(trx, projectId, current.default);
      if (held.length > 0) {
        throw conflict(
          `Locales cannot be turned off while other locales hold content (${held.join(', ')}): their translations would be hidden under one language.`,
        );
      }
    }
    await repo.updateProject(trx, projectId, {
      locales: next === null ? null : localesText(next),
      updatedAt: isoNow(),
    });
    await changed(TOPICS.snapshot, projectId);
    const kept = new Set(next?.available.map((l) => l.code) ?? []);
    const removed = (current?.available ?? []).map((l) => l.code).filter((c) => !kept.has(c));
    if (removed.length > 0)
      await enqueueEvent(trx, projectId, 'project.locales_removed', { locales: removed });
  }

  return {
    get,

    /**
     * Creates a project and its first admin. An email that already has an account gets the project
     * added when the password matches; otherwise 409 (contract §2), so nobody can attach projects to
     * someone else. The 409 says what login says of a wrong password (issue 44): never that an account
     * exists, nor the email.
     */
    async create(input: { name: string; admin: { email: string; password: string } }) {
      const email = normalizeEmail(input.admin.email);
      const existing = await users.findAccountByEmail(db, email);
      if (existing && !(await verifyPassword(existing.passwordHash, input.admin.password))) {
        throw wrongEmailOrPassword();
      }
      const passwordHash = existing ? null : await hashPassword(input.admin.password);
      try {
        return await db.transaction().execute(async (trx) => {
          const now = isoNow();
          const projectId = newId('prj');
          const accountId = existing?.id ?? newId('usr');
          await repo.insertProject(trx, { id: projectId, name: input.name, apiKey: newApiKey(), now });
          if (!existing)
            await users.insertAccount(trx, {
              id: accountId,
              email,
              name: '',
              passwordHash: passwordHash!,
              now,
            });
          await users.insertMembership(trx, { projectId, accountId, role: 'admin', now });
          await recordActivity(
            trx,
            projectId,
            { type: 'user', id: accountId, email },
            {
              action: 'project.created',
              target: { type: 'project', id: projectId },
              summary: `${email} created the project "${input.name}".`,
            },
          );
          const project = toProject((await repo.findProject(trx, projectId))!, []);
          return { project, admin: { id: accountId, email, role: 'admin' as const } };
        });
      } catch (err) {
        // Another request created the account meanwhile: the same answer as a wrong password.
        throw fromConstraint(err, { unique: wrongEmailOrPassword().message });
      }
    },

    async listForAccount(accountId: string): Promise<(Project & { role: Role })[]> {
      const rows = await repo.projectsOfAccount(db, accountId);
      const hooks = await repo.deployHooksOf(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((row) => ({ ...toProject(row, hooks), role: row.role }));
    },

    async update(projectId: string, patch: ProjectPatch, actor: UserActor): Promise<Project> {
      // Outbound safety (contract §4): checked before the transaction, as it resolves host names.
      if (patch.deployHooks) await checkDeployHookTargets(patch.deployHooks, options.allowPrivate);
      checkPreviewUrl(patch.previewUrl);
      const locales = patch.locales ? checkedLocales(patch.locales) : patch.locales;
      await transactionWithChanges(db, changes, async (trx, changed) => {
        await changed(TOPICS.project, projectId);
        const now = isoNow();
        if (locales !== undefined) await changeLocales(trx, changed, projectId, locales);
        await repo.updateProject(trx, projectId, {
          updatedAt: now,
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.domains !== undefined && { domains: JSON.stringify(normalizeDomains(patch.domains)) }),
          ...(patch.cdnUrl !== undefined && { cdnUrl: patch.cdnUrl?.replace(/\/+$/, '') ?? null }),
          ...(patch.previewUrl !== undefined && { previewUrl: patch.previewUrl }),
          ...(patch.bakeEnabled !== undefined && { bakeEnabled: patch.bakeEnabled ? 1 : 0 }),
          ...(patch.definitionSync !== undefined && { definitionSync: patch.definitionSync }),
        });
        if (patch.deployHooks) {
          const stored = await repo.deployHooksOf(trx, [projectId]);
          await repo.replaceDeployHooks(
            trx,
            projectId,
            mergeDeployHooks(projectId, patch.deployHooks, stored, now, options.secrets),
          );
        }
        // Names of what changed, never values (deploy hooks carry secrets); the locales are named (§17).
        const fields = Object.keys(patch).filter((k) => patch[k as keyof ProjectPatch] !== undefined);
        const languages = locales === undefined ? '' : ` Locales: ${describeLocales(locales)}.`;
        await recordActivity(trx, projectId, actor, {
          action: 'project.updated',
          target: { type: 'project', id: projectId },
          summary: `${actor.email} changed the project's ${fields.join(', ') || 'settings'}.${languages}`,
        });
      });
      return get(projectId);
    },

    /** A new publishable key; the old one and every preview token stop working with the next request. */
    async rotateKey(projectId: string, actor: UserActor): Promise<Project> {
      await transactionWithChanges(db, changes, async (trx, changed) => {
        await repo.updateProject(trx, projectId, { apiKey: newApiKey(), updatedAt: isoNow() });
        await changed(TOPICS.project, projectId);
        // A preview token is valid only beside the key (contract §16): the old key's tokens end too.
        await options.endPreviewTokens(trx, changed, projectId);
        await recordActivity(trx, projectId, actor, {
          action: 'project.key_rotated',
          target: { type: 'project', id: projectId },
          summary: `${actor.email} rotated the publishable key; the old key stopped working.`,
        });
      });
      return get(projectId);
    },

    /** What a publishable-key sync may do in this project (asked by the definitions module). */
    async definitionSyncOf(projectId: string): Promise<DefinitionSyncMode> {
      const mode = await repo.definitionSyncOf(db, projectId);
      if (!mode) throw notFound('Project');
      return mode;
    },
  };
}

function normalizeDomains(domains: string[]): string[] {
  return [...new Set(domains.map((d) => d.toLowerCase()))];
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
