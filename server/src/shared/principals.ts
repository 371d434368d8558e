/**
 * Who is calling, as the auth layer (src/http/auth.ts) resolves it and the modules that own the
 * credentials fill it in. Here, not in http/, so services and repositories can name these types
 * without importing the HTTP layer.
 */

/**
 * How a request authenticated. `preview`: a preview token (`x-cms-preview`) beside the publishable
 * key of its project (contract §10); it reads what a member sees and writes nothing.
 */
export type Credential = 'session' | 'publishableKey' | 'secretKey' | 'preview';

export interface SessionPrincipal {
  tokenHash: string;
  accountId: string;
  email: string;
}

/** A secret API key, resolved (filled in by the API keys module). */
export interface SecretKeyPrincipal {
  id: string;
  access: 'read' | 'write';
  /** The sites the key covers right now: its scope intersected with what its creator administers. */
  projectIds: readonly string[];
}
