import type { IncomingMessage, ServerResponse } from 'node:http';
import { etagMatches } from './etag.js';
import type { AccessLog } from './logging.js';
import { requestId } from './request-id.js';

/**
 * The revalidation fast path: a site (or its CDN) asking "has this page / the snapshot changed?"
 * with If-None-Match, answered 304 from memory before the request enters Fastify.
 *
 * Why: a 304 is the most frequent visitor request and carries no body, so the framework's per-request
 * machinery (routing, hook chain, child logger, validation) is most of its cost — measured at half of
 * a bare node:http server's throughput, against a contract target of 0.8x. Everything else, and
 * anything this cannot decide with certainty, goes through the normal route unchanged.
 *
 * It answers only when the normal route would give the same answer, from the same caches:
 * - GET /v1/content/<pageId> or GET /v1/snapshot, no query string;
 * - only the publishable key (no Authorization: sessions and secret keys take the normal path; no
 *   x-cms-preview: a preview token sees working copies, and an unknown one must get its 401; no
 *   x-cms-project-id, which the normal path would check against the key; no Origin, so CORS headers
 *   are always the normal path's);
 * - the key is in the key cache (a rotated key is dropped from it on every instance), and the page
 *   or snapshot is cached with an ETag the request names. Caches are only trusted while the change
 *   bus is live (MemoCache), so a lost LISTEN connection sends everything the normal way.
 * The response carries the same headers as the route's 304, and the same access-log line.
 */
export interface RevalidationSources {
  projectIdOfKey(apiKey: string): string | undefined;
  pageEtag(projectId: string, pageId: string): string | undefined;
  snapshotEtag(projectId: string): string | undefined;
}

const CONTENT_PREFIX = '/v1/content/';

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function createRevalidator(
  sources: RevalidationSources,
  /** The app's access log; null when the level drops access lines. */
  access: AccessLog | null,
  /** Told of each 304 answered here (the request metrics), with the time it took. */
  onAnswered?: (kind: 'page' | 'snapshot', seconds: number) => void,
) {
  function etagFor(url: string, projectId: string): string | undefined {
    if (url === '/v1/snapshot') return sources.snapshotEtag(projectId);
    if (!url.startsWith(CONTENT_PREFIX)) return undefined;
    const segment = url.slice(CONTENT_PREFIX.length);
    if (segment === '' || segment.includes('/') || segment.includes('?')) return undefined;
    try {
      return sources.pageEtag(projectId, decodeURIComponent(segment));
    } catch {
      return undefined; // malformed escape: the normal route reports it
    }
  }

  /** True when it answered; false to let Fastify handle the request. */
  return function revalidate(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET') return false;
    const headers = req.headers;
    const ifNoneMatch = headers['if-none-match'];
    const apiKey = single(headers['x-cms-key']);
    if (
      !ifNoneMatch ||
      !apiKey ||
      headers.authorization ||
      headers.origin ||
      headers['x-cms-project-id'] ||
      headers['x-cms-preview']
    ) {
      return false;
    }
    const started = access || onAnswered ? performance.now() : 0;
    const projectId = sources.projectIdOfKey(apiKey.trim());
    const url = req.url ?? '';
    const etag = projectId ? etagFor(url, projectId) : undefined;
    if (!etag || !etagMatches(ifNoneMatch, etag)) return false;

    const id = requestId(req);
    res.writeHead(304, { 'x-request-id': id, etag, 'cache-control': 'no-cache', vary: 'Origin' });
    res.end();
    const elapsedMs = performance.now() - started;
    onAnswered?.(url === '/v1/snapshot' ? 'snapshot' : 'page', elapsedMs / 1000);
    access?.write({ reqId: id, method: 'GET', url, statusCode: 304, responseTimeMs: elapsedMs });
    return true;
  };
}

export type Revalidator = ReturnType<typeof createRevalidator>;
