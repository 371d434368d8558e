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
