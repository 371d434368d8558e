import type { Db } from '../../db/database.js';
import type { Outbox } from '../../outbox/index.js';
import { forbidden, notFound, validationFailed } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { SecretKeyPrincipal, UserActor } from '../../shared/principals.js';
import { randomToken, sha256Hex } from '../../shared/secrets.js';
import { isoAt } from '../../shared/time.js';
import { adminProjectIds } from '../users/index.js';
import * as repo from './api-keys.repository.js';
import type { ApiKeyRow, KeyAccess, KeyScope } from './api-keys.table.js';

export const SECRET_KEY_PREFIX = 'cms_sk_';
/** Characters of the key kept in clear for display ("cms_sk_" + 5): enough to tell keys apart. */
const DISPLAY_PREFIX_LENGTH = 12;
/** lastUsedAt is written at most once per key per window. */
const TOUCH_WINDOW_MS = 60_000;
/** Bound on the per-instance throttle map; clearing it only costs a few extra (guarded) updates. */
const TOUCH_MAP_MAX = 10_000;

const accessLabel = (access: KeyAccess): string => (access === 'write' ? 'read & write' : 'read-only');

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scope: KeyScope;
  /** `selected`: the listed sites; `all`: the sites it covers at the time of the response. */
  projectIds: string[];
  access: KeyAccess;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface CreateKeyInput {
  name: string;
  scope: KeyScope;
  projectIds?: string[];
  access: KeyAccess;
}

export interface ApiKeysOptions {
  /** Clock in ms (tests move it to cross the lastUsedAt window). */
  now?: () => number;
  /** Where a failed lastUsedAt write is reported; it never fails the request. */
  onTouchError?: (err: unknown) => void;
}

export function createApiKeysService(db: Db, outbox: Outbox, options: ApiKeysOptions = {}) {
  const { recordActivity } = outbox;
  const now = options.now ?? Date.now;
  // keyId -> ms of this instance's last lastUsedAt write. Instances share nothing here: the
  // guarded UPDATE keeps the whole fleet at about one write per key per minute.
  const touched = new Map<string, number>();
  // The lastUsedAt writes still in flight: closing waits for them, and so can a test (settled()).
  const inFlight = new Set<Promise<void>>();

  function touch(id: string, storedLastUsedAt: string | null): void {
    const t = now();
    const mine = touched.get(id) ?? 0;
    const stored = storedLastUsedAt ? Date.parse(storedLastUsedAt) : 0;
    if (t - Math.max(mine, stored) < TOUCH_WINDOW_MS) return;
    if (touched.size >= TOUCH_MAP_MAX) touched.clear();
    touched.set(id, t);
    // Off the request's critical path: the response does not wait for this write.
    const write = repo
      .touchKey(db, id, isoAt(t), isoAt(t - TOUCH_WINDOW_MS))
      .catch((err) => options.onTouchError?.(err))
      .finally(() => inFlight.delete(write));
    inFlight.add(write);
  }

  function shape(row: ApiKeyRow, projectIds: string[]): ApiKey {
    return {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      scope: row.scope,
      projectIds,
      access: row.access,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt,
    };
  }

  async function requireAdminSomewhere(accountId: string, trx: Db = db): Promise<string[]> {
    const adminIds = await adminProjectIds(trx, accountId);
    if (adminIds.length === 0) throw forbidden('Only a site admin can manage secret API keys.');
    return adminIds;
  }

  return {
    async list(accountId: string): Promise<ApiKey[]> {
      const adminIds = await requireAdminSomewhere(accountId);
      const rows = await repo.listKeys(db, accountId);
      const listed = await repo.listedProjects(
        db,
        rows.filter((r) => r.scope === 'selected').map((r) => r.id),
      );
      return rows.map((r) => shape(r, r.scope === 'all' ? adminIds : (listed.get(r.id) ?? [])));
    },

    /** Returns the key once, with its plaintext; only its hash and display prefix are stored. */
    create(actor: UserActor, input: CreateKeyInput): Promise<ApiKey & { key: string }> {
      const accountId = actor.id;
      const listed = [...new Set(input.projectIds ?? [])].sort();
      if (input.scope === 'selected' && listed.length === 0) {
        throw validationFailed('A key with scope "selected" needs at least one project.', [
          { path: 'body.projectIds', message: 'must list at least one project for scope "selected"' },
        ]);
      }
      if (input.scope === 'all' && listed.length > 0) {
        throw validationFailed('A key with scope "all" covers every site you administer; omit projectIds.', [
          { path: 'body.projectIds', message: 'must be omitted for scope "all"' },
        ]);
      }
      return db.transaction().execute(async (trx) => {
        const adminIds = await requireAdminSomewhere(accountId, trx);
        const outside = listed.filter((id) => !adminIds.includes(id));
        if (outside.length > 0) {
          throw forbidden(
            `You are not an admin of ${outside.join(', ')}; a key can only name sites you administer.`,
          );
        }
        const key = randomToken(SECRET_KEY_PREFIX, 32);
        const row: ApiKeyRow = {
          id: newId('key'),
          accountId,
          name: input.name,
          keyHash: sha256Hex(key),
          prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
          scope: input.scope,
          access: input.access,
          createdAt: isoAt(now()),
          lastUsedAt: null,
          revokedAt: null,
        };
        await repo.insertKey(trx, row, listed);
        const covered = input.scope === 'all' ? adminIds : listed;
        await recordActivity(trx, covered, actor, {
          action: 'api_key.created',
          target: { type: 'apiKey', id: row.id },
          summary: `${actor.email} created the ${accessLabel(row.access)} API key "${row.name}".`,
        });
        return { ...shape(row, covered), key };
      });
    },

    /** Any session may revoke its own account's keys (revoking only ever removes access). */
    revoke(actor: UserActor, id: string): Promise<void> {
      return db.transaction().execute(async (trx) => {
        // Read before revoking: the log names the sites the key covered at that moment.
        const covered = await repo.coveredProjectIds(trx, actor.id, id);
        const name = await repo.revokeKey(trx, actor.id, id, isoAt(now()));
        if (name === null) throw notFound('API key');
        await recordActivity(trx, covered, actor, {
          action: 'api_key.revoked',
          target: { type: 'apiKey', id },
          summary: `${actor.email} revoked the API key "${name}".`,
        });
      });
    },

    /**
     * The credential lookup for `Authorization: Bearer cms_sk_…`: one indexed query by hash, no
     * cache, so a revocation or a demotion is seen by every instance on the very next request.
     */
    /** Resolves once every lastUsedAt write started so far has finished (or failed, and was reported). */
    async settled(): Promise<void> {
      await Promise.all([...inFlight]);
    },

    async resolve(key: string): Promise<SecretKeyPrincipal | null> {
      const rows = await repo.resolveByHash(db, sha256Hex(key));
      const first = rows[0];
      if (!first) return null;
      touch(first.id, first.lastUsedAt);
      const projectIds = rows.flatMap((r) => (r.projectId ? [r.projectId] : []));
      return { id: first.id, name: first.name, access: first.access, projectIds };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
