export interface SessionsTable {
  /** SHA-256 of the bearer token; the token itself is never stored. */
  tokenHash: string;
  accountId: string;
  createdAt: string;
  expiresAt: string;
}

export interface LoginFailuresTable {
  id: string;
  ip: string;
  email: string;
  createdAt: string;
}

/**
 * A set-password link (contract §15): only the SHA-256 of its token is stored; at most one per
 * account. Issued by an admin (`issuedBy`), whose right over the account is checked again at use.
 */
export interface SetPasswordTokensTable {
  tokenHash: string;
  accountId: string;
  issuedBy: string;
  createdAt: string;
  expiresAt: string;
}
