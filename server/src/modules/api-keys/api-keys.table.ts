import type { Selectable } from 'kysely';

export type KeyScope = 'all' | 'selected';
export type KeyAccess = 'read' | 'write';

/** Secret API keys: account-owned, stored as a SHA-256 of the key plus a short display prefix. */
export interface ApiKeysTable {
  id: string;
  accountId: string;
  name: string;
  keyHash: string;
  prefix: string;
  scope: KeyScope;
  access: KeyAccess;
  createdAt: string;
  /** Written at most once a minute per key (see api-keys.service.ts). */
  lastUsedAt: string | null;
  /** Set by DELETE; a revoked key no longer authenticates and is no longer listed. */
  revokedAt: string | null;
}

/** The sites a `selected` key names (a subset of what its creator administered at creation). */
export interface ApiKeyProjectsTable {
  keyId: string;
  projectId: string;
}

export type ApiKeyRow = Selectable<ApiKeysTable>;
