import type { Db, DbOrTx } from '../../db/database.js';
import { type ChangeBus, type Changed, TOPICS, transactionWithChanges } from '../../db/dialect/change-bus.js';
import type { Outbox } from '../../outbox/index.js';
import type { UserActor } from '../../shared/principals.js';
import { randomToken, sha256Hex } from '../../shared/secrets.js';
import { isoAt, isoNow } from '../../shared/time.js';
import * as repo from './preview.repository.js';

export const PREVIEW_TOKEN_PREFIX = 'cms_pv_';
export const PREVIEW_TTL = { min: 60, max: 86_400, default: 3_600 } as const;

/**
 * Ends every preview token `accountId` created — in `projectId`, or in every project when it is
 * omitted — inside the caller's transaction (contract §16, §17: the creator left the project, their
 * role changed, their password changed). A request presenting one is refused once the transaction
 * commits, on every instance (tokens are looked up in the database on each request); `changed`
 * tells each instance's live streams (topic `preview`, key the project), so a preview stream on
 * that token ends too. Returns how many tokens ended. Call it inside transactionWithChanges.
 */
export async function endPreviewTokensOf(
  trx: DbOrTx,
  changed: Changed,
  accountId: string,
  projectId?: string,
): Promise<number> {
  const projects = await repo.deleteTokens(trx, { createdBy: accountId, projectId });
  for (const id of new Set(projects)) await changed(TOPICS.preview, id);
  return projects.length;
}

/** Ends every preview token of a project (its publishable key was rotated); as endPreviewTokensOf. */
export async function endProjectPreviewTokens(
  trx: DbOrTx,
  changed: Changed,
  projectId: string,
): Promise<number> {
  const projects = await repo.deleteTokens(trx, { projectId });
  if (projects.length > 0) await changed(TOPICS.preview, projectId);
  return projects.length;
}

/** A preview token as the credential lookup finds it: `id` is its hash (live streams hold it). */
export interface ResolvedPreviewToken {
  id: string;
  projectId: string;
  expiresAt: string;
}

/**
 * Preview tokens (contract §10, §16). A token lets a site's preview read what a member's session sees —
 * working copies and the objects' draft overlay — and nothing else: it is read-only, belongs to one
 * project, expires, and ends with its creator's access. Rejected: a session token in the preview URL
 * or in the site's build (it can write, and lives a week); a signed stateless token (it could not be
 * ended before it expires, and a lookup by hash is one indexed read, like sessions).
 */
export function createPreviewService(db: Db, outbox: Outbox, changes: ChangeBus) {
  const { recordActivity } = outbox;
  return {
    async create(projectId: string, accountId: string, ttlSeconds: number = PREVIEW_TTL.default) {
      const token = randomToken(PREVIEW_TOKEN_PREFIX);
      const now = Date.now();
      const expiresAt = isoAt(now + ttlSeconds * 1000);
      await repo.insertToken(db, {
        tokenHash: sha256Hex(token),
        projectId,
        createdBy: accountId,
        createdAt: isoAt(now),
        expiresAt,
      });
      return { token, expiresAt };
    },

    /** The credential lookup for `x-cms-preview`: the token, or null (unknown, ended or expired). */
    async resolve(token: string): Promise<ResolvedPreviewToken | null> {
      const id = sha256Hex(token);
      const row = await repo.findLiveToken(db, id, isoNow());
      return row && { id, ...row };
    },

    /** Which of these tokens (ids from resolve) still work: live streams ask after a change. */
    stillLive: (ids: string[]) => repo.liveTokenHashes(db, ids, isoNow()),

    /** DELETE /v1/preview-tokens: ends every token the caller made in the project. */
    endMine(projectId: string, actor: UserActor): Promise<number> {
      return transactionWithChanges(db, changes, async (trx, changed) => {
        const deleted = await endPreviewTokensOf(trx, changed, actor.id, projectId);
        if (deleted > 0) {
          await recordActivity(trx, projectId, actor, {
            action: 'preview_tokens.revoked',
            target: { type: 'user', id: actor.id },
            summary: `${actor.email} ended ${deleted === 1 ? 'their preview token' : `their ${deleted} preview tokens`}.`,
          });
        }
        return deleted;
      });
    },
  };
}

export type PreviewService = ReturnType<typeof createPreviewService>;
