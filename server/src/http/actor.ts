import type { FastifyRequest } from 'fastify';
import type { ActivityActor, UserActor } from '../shared/principals.js';

/**
 * Who the activity log names for this request (contract §8): the secret key that authorised it, else
 * the signed-in member, else the site (the publishable key, which only syncs definitions).
 */
export function activityActorOf(request: FastifyRequest): ActivityActor {
  const { via, session, secretKey } = request.auth;
  if (via === 'secretKey' && secretKey) return { type: 'apiKey', id: secretKey.id, name: secretKey.name };
  if (session) return { type: 'user', id: session.accountId, email: session.email };
  return { type: 'site' };
}

/** The signed-in member as an actor, on routes whose access rule requires a session. */
export function userActorOf(request: FastifyRequest): UserActor {
  const session = request.auth.session;
  if (!session) throw new Error('userActorOf on a route without a session');
  return { type: 'user', id: session.accountId, email: session.email };
}
