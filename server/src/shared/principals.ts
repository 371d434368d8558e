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
  /** The key's name, for the activity log. */
  name: string;
  access: 'read' | 'write';
  /** The sites the key covers right now: its scope intersected with what its creator administers. */
  projectIds: readonly string[];
}

/**
 * Who made a change, as the activity log records it (contract §8). `system` is scheduled work, done
 * on behalf of the member who scheduled it.
 */
export type ActivityActor =
  | { type: 'user'; id: string; email: string }
  | { type: 'apiKey'; id: string; name: string }
  | { type: 'site' }
  | { type: 'system'; onBehalfOf: { id: string; email: string } };

/** A member, as an actor. */
export type UserActor = Extract<ActivityActor, { type: 'user' }>;

/** Scheduled work, as an actor. */
export type SystemActor = Extract<ActivityActor, { type: 'system' }>;

/** The member a change is attributed to in history rows and event payloads (`{ id, email }`). */
export function memberBehind(actor: UserActor | SystemActor): { id: string; email: string } {
  return actor.type === 'user' ? { id: actor.id, email: actor.email } : actor.onBehalfOf;
}
