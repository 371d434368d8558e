import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionCheck } from '../modules/auth/index.js';
import type { Role } from '../modules/users/index.js';
import { AppError, forbidden, projectRequired, unauthorized, validationFailed } from '../shared/errors.js';
import type { Credential, SecretKeyPrincipal, SessionPrincipal } from '../shared/principals.js';
import type { AccessRule, RequiredRole } from './access.js';
import { appendRouteHook } from './route-hooks.js';
import { createSessionHints, type SessionHints } from './session-hints.js';

/**
 * The one piece that decides who is calling and on which project (contract §2). Routes declare an
 * AccessRule; this hook resolves the credentials once, picks the project, checks membership, role,
 * key scope and access level, and leaves the answer on `request.auth`. No route checks roles itself.
 */

/** Lookups the hook needs; the modules that own the tables provide them (wired in app.ts). */
export interface CredentialStore {
  session(token: string): Promise<SessionPrincipal | null>;
  publishableKey(key: string): Promise<{ projectId: string } | null>;
  secretKey(key: string): Promise<SecretKeyPrincipal | null>;
  role(accountId: string, projectId: string): Promise<Role | null>;
  /** The account's projects (ids), to pick the only one when no project is named. */
  projectIdsOf(accountId: string): Promise<string[]>;
  /** A preview token that works now (`id`: what identifies it to live streams); null otherwise. */
  previewToken(token: string): Promise<{ id: string; projectId: string; expiresAt: string } | null>;
}

export interface AuthContext {
  /** The credential that authorised the call. */
  via: Credential | null;
  projectId: string | null;
  session: SessionPrincipal | null;
  /** The session's role in `projectId`. */
  role: Role | null;
  secretKey: SecretKeyPrincipal | null;
  /** The preview token that authorised the call: a live stream ends when it expires or is ended. */
  preview?: { id: string; expiresAt: string };
  /**
   * Set when the session was let through on remembered facts (rule `sessionCheckedInWrite`): the
   * route must hand it to its write, whose first statement verifies it (and marks it verified).
   */
  sessionCheck?: SessionCheck;
  /** With sessionCheck: authenticates afresh, reading everything (throws 401/403 as it finds). */
  recheck?: () => Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
}

const ANONYMOUS: AuthContext = Object.freeze({
  via: null,
  projectId: null,
  session: null,
  role: null,
  secretKey: null,
});
const RANK: Record<RequiredRole, number> = { member: 0, editor: 1, admin: 2 };
const PREVIEW_HEADER = 'x-cms-preview';

/** The 400 for `x-cms-preview` on a route that does not read previews (contract §16); also the document's example. */
export function previewHeaderRefused(): AppError {
  const message =
    'x-cms-preview is read only by GET /v1/content/:pageId, GET /v1/objects and GET /v1/live; do not send it here.';
  return validationFailed(message, [{ path: `headers.${PREVIEW_HEADER}`, message }]);
}

/** Throws previewHeaderRefused when the rule takes no preview token and the request carries one. */
function refuseStrayPreview(request: FastifyRequest, rule: AccessRule): void {
  if (rule.preview === undefined && request.headers[PREVIEW_HEADER] !== undefined) {
    throw previewHeaderRefused();
  }
}
const SECRET_KEY_PREFIX = 'cms_sk_';

/**
 * Whether the caller sees working copies (every entry, draft overlay): a member's session, or a
 * preview token of the project. The one place that decides it for content, objects and live.
 */
export function seesWorkingCopies(auth: AuthContext): boolean {
  return auth.session !== null || auth.via === 'preview';
}

/** The project id of an authorised request; only call it on routes whose rule has `project: true`. */
export function projectIdOf(request: FastifyRequest): string {
  const id = request.auth.projectId;
  if (!id) throw new AppError('internal_error', 500, 'Route needs a project but its access rule has none.');
  return id;
}

export function installAuth(
  app: FastifyInstance,
  store: CredentialStore,
  hints: SessionHints = createSessionHints(),
): void {
  app.decorateRequest('auth', null as unknown as AuthContext);

  app.addHook('onRoute', (route) => {
    const rule = route.config?.access;
    // Every /v1 route must say who may call it; a forgotten rule fails at start, not in production.
    if (route.url.startsWith('/v1/') && route.url !== '/v1/openapi.json') {
      if (!rule) throw new Error(`Route ${route.method} ${route.url} has no config.access rule`);
      route.schema ??= {};
      (route.schema as Record<string, unknown>).security = securityFor(rule);
    }
    // The rule is fixed per route, so the route gets its own hook with the rule in hand.
    if (rule && rule.allow.length > 0) {
      appendRouteHook(route, 'onRequest', async (request: FastifyRequest) => {
        request.auth = await authenticate(request, rule, store, hints);
      });
      if (rule.sessionCheckedInWrite) {
        // The net under the contract: a success whose write did not verify a deferred session
        // check (a handler that forgot to pass it on) is authenticated afresh before it is sent.
        // Errors are verified by the error handler (src/http/errors.ts).
        appendRouteHook(route, 'onSend', async (request: FastifyRequest, reply: { statusCode: number }) => {
          const { sessionCheck, recheck } = request.auth ?? {};
          if (sessionCheck && !sessionCheck.verified && reply.statusCode < 400) await recheck?.();
        });
      }
    } else {
      appendRouteHook(
        route,
        'onRequest',
        (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
          request.auth = ANONYMOUS;
          if (!rule) return done();
          try {
            refuseStrayPreview(request, rule);
            done();
          } catch (err) {
            done(err as Error);
          }
        },
      );
    }
  });
}

async function authenticate(
  request: FastifyRequest,
  rule: AccessRule,
  store: CredentialStore,
  hints: SessionHints,
  /** False: read everything (a recheck). */
  useHints = rule.sessionCheckedInWrite === true,
): Promise<AuthContext> {
  refuseStrayPreview(request, rule);
  const allows = (c: Credential) => rule.allow.includes(c);
  /** Whether a fact about the session came from the hints, unread: the write must then verify it. */
  let hinted = false;

  // 1. Resolve what was presented. A credential that is presented but unknown is always a 401.
  let session: SessionPrincipal | null = null;
  let secretKey: SecretKeyPrincipal | null = null;
  const bearer = bearerToken(request);
  if (bearer !== null) {
    if (bearer.startsWith(SECRET_KEY_PREFIX)) {
      secretKey = await store.secretKey(bearer);
      if (!secretKey) throw unauthorized('The secret API key is unknown or revoked.');
    } else {
      const remembered = useHints ? hints.session(bearer) : undefined;
      session = remembered ?? (await store.session(bearer));
      if (!session) {
        hints.forget(bearer);
        throw unauthorized('The session token is invalid or has expired.');
      }
      if (remembered) hinted = true;
      else hints.remember(bearer, session);
    }
  }
  const siteKeyHeader = header(request, 'x-cms-key');
  let siteProjectId: string | null = null;
  if (siteKeyHeader !== null && rule.project) {
    siteProjectId = (await store.publishableKey(siteKeyHeader))?.projectId ?? null;
    if (!siteProjectId) throw unauthorized('The x-cms-key publishable key is unknown or was rotated.');
  }
  // A preview token is read-only and valid only beside the publishable key of its own project.
  const previewHeader = rule.preview === 'ignore' ? null : header(request, PREVIEW_HEADER);
  let previewProjectId: string | null = null;
  let preview: { id: string; expiresAt: string } | undefined;
  if (previewHeader !== null && rule.project) {
    const found = await store.previewToken(previewHeader);
    previewProjectId = found?.projectId ?? null;
    if (!found || !previewProjectId) {
      throw unauthorized('The x-cms-preview token is unknown, was ended, or has expired.');
    }
    preview = { id: found.id, expiresAt: found.expiresAt };
    if (rule.preview !== 'read') {
      throw forbidden(
        'Preview tokens are read-only: they are accepted only on GET /v1/content/:pageId, GET /v1/entries/:entryId, GET /v1/objects and GET /v1/live.',
      );
    }
    if (!siteProjectId) throw unauthorized('A preview token needs the x-cms-key of its project beside it.');
    if (previewProjectId !== siteProjectId) throw forbidden('This preview token belongs to another project.');
  }

  // 2. Which credential authorises the call.
  if (secretKey && !allows('secretKey')) {
    throw forbidden('Secret API keys cannot call this route; sign in with a session.');
  }
  let via: Credential | null = null;
  if (secretKey) via = 'secretKey';
  else if (previewProjectId) via = 'preview';
  else if (siteProjectId && allows('publishableKey')) via = 'publishableKey';
  else if (session && allows('session')) via = 'session';
  if (!via) throw unauthorized(missingCredentialMessage(rule));
  if (rule.requireSiteKey && !siteProjectId) {
    throw unauthorized('This route needs the x-cms-key header of the project as well as a session.');
  }
  const sessionCounts = via === 'session' || (session !== null && rule.optionalSession === true);
  const activeSession = sessionCounts ? session : null;

  if (!rule.project) return { via, projectId: null, session: activeSession, role: null, secretKey };

  // 3. The project: path :id, then the publishable key, then x-cms-project-id; two that differ are a 400.
  const named = new Set<string>();
  if (rule.projectFromParam) named.add((request.params as { id: string }).id);
  if (siteProjectId) named.add(siteProjectId);
  const projectHeader = header(request, 'x-cms-project-id');
  if (projectHeader) named.add(projectHeader);
  if (named.size > 1) {
    throw projectRequired('The request names two different projects (path, x-cms-key or x-cms-project-id).');
  }
  let projectId: string | null = named.values().next().value ?? null;
  if (!projectId) {
    const candidates = secretKey
      ? secretKey.projectIds
      : activeSession
        ? await store.projectIdsOf(activeSession.accountId)
        : [];
    if (candidates.length !== 1) {
      throw projectRequired(
        'Name the project with the x-cms-project-id header; this credential covers several.',
      );
    }
    projectId = candidates[0] ?? null;
  }
  if (!projectId) throw projectRequired('The project cannot be determined.');

  // 4. The credential must reach that project, with the right role or access level.
  let role: Role | null = null;
  if (activeSession) {
    const remembered = useHints ? hints.role(activeSession.accountId, projectId) : undefined;
    role = remembered ?? (await store.role(activeSession.accountId, projectId));
    if (!role) throw forbidden('You are not a member of this project.');
    if (remembered) hinted = true;
    else hints.rememberRole(activeSession.accountId, projectId, role);
    if (RANK[role] < RANK[rule.role ?? 'member']) throw forbidden(`This action needs the ${rule.role} role.`);
  }
  if (secretKey) {
    if (!secretKey.projectIds.includes(projectId))
      throw forbidden('This secret API key does not cover this project.');
    if (rule.secretAccess === 'write' && secretKey.access !== 'write') {
      throw forbidden('This secret API key is read-only.');
    }
  }
  const context: AuthContext = {
    via,
    projectId,
    session: activeSession,
    role,
    secretKey,
    ...(via === 'preview' && preview && { preview }),
  };
  if (hinted && activeSession) {
    context.sessionCheck = {
      tokenHash: activeSession.tokenHash,
      projectId,
      roles: (Object.keys(RANK) as RequiredRole[]).filter(
        (r): r is Role => r !== 'member' && RANK[r] >= RANK[rule.role ?? 'member'],
      ),
    };
    context.recheck = async () => {
      try {
        return await authenticate(request, rule, store, hints, false);
      } catch (err) {
        if (bearer) hints.forget(bearer);
        throw err;
      }
    };
  }
  return context;
}

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first ? first.trim() || null : null;
}

function bearerToken(request: FastifyRequest): string | null {
  const value = header(request, 'authorization');
  if (value === null) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <token>".');
  return match[1];
}

/** The 401 message for a call without the credential a rule needs (also the document's example). */
export function missingCredentialMessage(rule: AccessRule): string {
  const names: Record<Credential, string> = {
    session: 'a session (Authorization: Bearer <token>)',
    publishableKey: 'the publishable key (x-cms-key)',
    secretKey: 'a secret API key (Authorization: Bearer cms_sk_…)',
    preview: 'a preview token (x-cms-preview) with the publishable key',
  };
  return `This route needs ${rule.allow.map((c) => names[c]).join(' or ')}.`;
}

/** OpenAPI security requirements for a rule: any one of the allowed credentials. */
function securityFor(rule: AccessRule): Record<string, string[]>[] {
  if (rule.allow.length === 0) return [];
  const names: Record<Credential, string> = {
    session: 'session',
    publishableKey: 'publishableKey',
    secretKey: 'secretKey',
    preview: 'preview',
  };
  if (rule.requireSiteKey) return [{ session: [], publishableKey: [] }];
  const alone = rule.allow.map((c) => ({ [names[c]]: [] }));
  return rule.preview === 'read' ? [...alone, { publishableKey: [], preview: [] }] : alone;
}
