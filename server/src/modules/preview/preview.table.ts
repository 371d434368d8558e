import type { Selectable } from 'kysely';

/** A preview token: read-only, one project, until `expiresAt`. */
export interface PreviewTokensTable {
  /** SHA-256 of the token; the token itself is never stored. */
  tokenHash: string;
  projectId: string;
  /** The member who made it (the row goes when the account does). */
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

export type PreviewTokenRow = Selectable<PreviewTokensTable>;
