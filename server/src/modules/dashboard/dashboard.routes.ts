import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The editor's dashboard (the `dashboard/` workspace, built by Vite) at /admin: static files only, no
 * /v1 route and nothing of the visitors' read paths. Hashed assets never change under their name, so
 * they are cached for a year; index.html is revalidated every time, so a new build is seen at once.
 * Addresses that are not files are the app's own routes and get index.html. The directory is looked
 * at per request: building after the server started works, and a missing build answers a page that
 * says how to make it instead of failing the start.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * No inline script and no inline style sheet (the dashboard avoids Mantine's injected <style>
 * elements; see dashboard/src/app/app.css). Images may come from a project's CDN, hence https:.
 * Frames: the preview pane shows the project's site (its previewUrl, any http(s) origin). The header
 * is the same for every project and every /admin response (index.html is one file), so it allows
 * http(s) frames in general; what guards the editor is the bridge's origin and source checks
 * (dashboard/src/features/preview), not the CSP. The dashboard itself may not be framed.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self'",
  'frame-src http: https:',
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = (dir: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Folio: the dashboard is not built</title></head>
<body><main><h1>The dashboard is not built</h1>
<p>Folio serves its dashboard from <code>${escapeHtml(dir)}</code>, which has no <code>index.html</code>.</p>
<p>Build it with <code>npm run build</code> (or <code>npm install</code>, which builds every workspace) at the
root of the repository, or point <code>CMS_DASHBOARD_DIR</code> at a built copy. The API works without it:
see <a href="/docs">/docs</a>.</p></main></body></html>
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

type Send = typeof import('@fastify/send').default;
let loadingSend: Promise<Send> | undefined;

/**
 * Sends a file under `dir` that exists (the routes check): ranges, ETag, Last-Modified and 304 by
 * @fastify/send, which @fastify/static is built on. Loaded on the first /admin request (issue 13 #2):
 * with @fastify/static registered at start, it and its glob and mime tables were 15 ms of every
 * start, for pages a server behind a site's build may never show. Caching is set per file below.
 */
async function sendFile(request: FastifyRequest, reply: FastifyReply, dir: string, path: string) {
  loadingSend ??= import('@fastify/send').then((m) => m.default);
  const send = await loadingSend;
  // send URI-decodes the path it is given, so it gets the encoded one.
  const { statusCode, headers, stream, type } = await send(request.raw, encodeURI(path), {
    root: dir,
    cacheControl: false, // set per file by the routes
  });
  if (type !== 'file') return reply.callNotFound();
  return reply.code(statusCode).headers(headers).send(stream);
}

export const dashboardRoutes =
  (dir: string): FastifyPluginAsync =>
  async (app) => {
    const secure = (reply: FastifyReply) =>
      reply
        .header('content-security-policy', DASHBOARD_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .header('x-frame-options', 'DENY');

    const index = async (request: FastifyRequest, reply: FastifyReply) => {
      secure(reply).header('cache-control', 'no-cache');
      if (!(await isFile(resolve(dir, 'index.html')))) {
        return reply.code(404).type('text/html; charset=utf-8').send(NOT_BUILT(dir));
      }
      return sendFile(request, reply, dir, 'index.html');
    };

    app.get('/admin', { schema: { hide: true } }, (request, reply) => index(request, reply));
    app.get<{ Params: { '*': string } }>('/admin/*', { schema: { hide: true } }, async (request, reply) => {
      const path = request.params['*'];
      if (path === '' || path === 'index.html') return index(request, reply);
      const file = resolve(dir, path);
      if (file.startsWith(dir + sep) && (await isFile(file))) {
        secure(reply).header('cache-control', path.startsWith('assets/') ? IMMUTABLE : 'no-cache');
        return sendFile(request, reply, dir, path);
      }
      // A missing file is a 404, never the app: a stale hashed name must not get HTML as script.
      if (path.startsWith('assets/') || /\.[A-Za-z0-9]+$/.test(path)) return reply.callNotFound();
      return index(request, reply);
    });
  };
