import type { Db } from '../../db/database.js';
import { randomToken, sha256Hex } from '../../shared/secrets.js';
import { isoAt, isoNow } from '../../shared/time.js';
import * as repo from './preview.repository.js';

export const PREVIEW_TOKEN_PREFIX = 'cms_pv_';
export const PREVIEW_TTL = { min: 60, max: 86_400, default: 3_600 } as const;

/**
 * Preview tokens (contract §10). A token lets a site's preview read what a member's session sees —
 * working copies and the objects' draft overlay — and nothing else: it is read-only, belongs to one
 * project and expires. Rejected: a session token in the preview URL or in the site's build (it can
 * write, and lives a week); a signed stateless token (it could not be revoked by pruning, and a
 * lookup by hash is one indexed read, like sessions).
 */
export function createPreviewService(db: Db) {
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

    /** The credential lookup for `x-cms-preview`: the token's project, or null (unknown or expired). */
    resolve: (token: string) => repo.findLiveToken(db, sha256Hex(token), isoNow()),
  };
}

export type PreviewService = ReturnType<typeof createPreviewService>;
