import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AccessRule, access } from './access.js';
import { appendRouteHook } from './route-hooks.js';

/**
 * CORS for the routes that take the publishable key (contract §2): content, snapshot, definitions
 * sync, objects reads — any route whose access rule accepts `x-cms-key`. Other routes never answer
 * CORS, so a browser on some other origin cannot drive the dashboard API with a stolen token.
 *
 * - Actual requests: `Access-Control-Allow-Origin: <origin>` only when the Origin's host is in the
 *   project's `domains` (any origin while `domains` is empty); `Vary: Origin` always. Errors raised
 *   before a project is known (401 for a missing or unknown key) allow the origin, so the page can
 *   read the error; they reveal nothing about any project.
 * - Preflight (OPTIONS) carries no x-cms-key, so the project is unknown: it is answered permissively
 *   for those paths (the origin, the routes' methods, our request headers), and the domains are
 *   enforced on the actual response. An OPTIONS for any other path is a 404.
 *
 * Domain entries are host names with an optional port (`example.com`, `localhost:5173`), compared
 * exactly with the Origin's host (`www.example.com` is its own entry). Rejected: @fastify/cors, whose origin callback runs before our auth has resolved the
 * project, and which would answer preflight for every route.
 */
// if-match: an editor on the site edits with optimistic concurrency (contract part two, §7);
// x-cms-preview: a site showing drafts (§10).
const ALLOW_HEADERS =
  'authorization, content-type, if-match, if-none-match, x-cms-key, x-cms-preview, x-cms-project-id, x-request-id';
// retry-after: a site's SDK waits as told on a 429 or 503 (a browser hides unlisted headers).
const EXPOSE_HEADERS = 'etag, retry-after, x-request-id';

const ANY_ORIGIN = { domains: [] };

const isSiteRoute = (rule: AccessRule | undefined): boolean =>
  rule !== undefined && (rule.allow.includes('publishableKey') || rule.requireSiteKey === true);

export function originAllowed(origin: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return false;
  }
  if (!host) return false;
  return domains.some((domain) => domain.toLowerCase() === host);
}

/** Adds `value` to the Vary header unless it is there already. */
export function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary');
  if (!current) reply.header('vary', value);
  else if (
    !String(current)
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(value.toLowerCase())
  ) {
    reply.header('vary', `${current}, ${value}`);
  }
}

/** The project's allowed browser origins (host names); null for an unknown project. Cached by the caller. */
export type DomainsOf = (projectId: string) => Promise<{ readonly domains: readonly string[] } | null>;

export function installCors(app: FastifyInstance, domainsOf: DomainsOf): void {
  // Callback style, not async: most requests (servers, no Origin) then cost no promise on the hot path.
  const onSend = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: Error | null, payload?: unknown) => void,
  ) => {
    addVary(reply, 'Origin');
    const origin = request.headers.origin;
    if (!origin) return done(null, payload);
    const allow = (site: { readonly domains: readonly string[] } | null) => {
      if (site && originAllowed(origin, site.domains)) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', EXPOSE_HEADERS);
      }
      done(null, payload);
    };
    const projectId = request.auth?.projectId ?? null;
    if (!projectId) return allow(ANY_ORIGIN);
    domainsOf(projectId).then(allow, (err: Error) => done(err));
  };

  const siteRoutes: { pattern: RegExp; method: string }[] = [];
  app.addHook('onRoute', (route) => {
    if (!isSiteRoute(route.config?.access)) return;
    appendRouteHook(route, 'onSend', onSend);
    const source = route.url
      .replace(/\/+$/, '')
      .split('/')
      .map((seg) =>
        seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) siteRoutes.push({ pattern: new RegExp(`^${source}/?$`), method });
  });

  app.options(
    '/v1/*',
    { config: { access: access.anyone }, schema: { hide: true } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const origin = request.headers.origin;
      const path = request.url.split('?')[0] ?? '';
      const methods = siteRoutes.filter((r) => r.pattern.test(path)).map((r) => r.method);
      if (!origin || methods.length === 0) {
        return reply.code(404).send({
          data: null,
          error: { code: 'not_found', message: `No route OPTIONS ${path}.` },
        });
      }
      addVary(reply, 'Origin');
      return reply
        .code(200)
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', [...new Set(methods)].join(', '))
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    },
  );
}
