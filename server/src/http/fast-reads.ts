import type { IncomingMessage, ServerResponse } from 'node:http';
// Imported, not the global: Node defines the global `performance` as a getter, which every call
// went through (a LoadGlobalIC and a call per read in the 304's profile, round 12).
import { performance } from 'node:perf_hooks';
import type { CachedJson } from '../shared/cached-json.js';
import { etagMatches } from './etag.js';
import type { AccessLog } from './logging.js';
import { requestIdOf } from './request-id.js';

/**
 * The visitor read fast path: GET /v1/content/<pageId> and GET /v1/snapshot with the publishable
 * key, answered from memory before the request enters Fastify — a 304 when If-None-Match names the
 * cached ETag, and for a page the cached 200 bytes themselves.
 *
 * Why: these are almost all of a site's requests, and once the page is cached the answer is a
 * lookup. Fastify's per-request machinery (routing, the hook chain, a child logger, validation,
 * reply decoration) was then most of the cost: with it a page read ran at 0.55x a bare node:http
 * server sending the same bytes (issue 13, target 0.6x), a 304 at half (contract target 0.8x).
 * Everything else, and anything this cannot decide with certainty, goes through the normal route.
 *
 * It answers only when the normal route would give the same answer, from the same caches:
 * - GET, the path is /v1/snapshot or /v1/content/<one segment>, no request body, and no query string
 *   but `?locale=<code>` (and for a page `&fallback=true|false`), each at most once (contract §14):
 *   the cache is keyed by the project's code, so only a code sent exactly as the project spells it
 *   finds anything (`fr-ca` goes the normal way, which matches it and reads the cache itself);
 * - only the publishable key (no Authorization: sessions and secret keys take the normal path; no
 *   x-cms-preview: a preview token sees working copies, and an unknown one must get its 401; no
 *   x-cms-project-id, which the normal path would check against the key; no Origin, so CORS headers
 *   are always the normal path's);
 * - the key is in the key cache (a rotated key is dropped from it on every instance), and the page
 *   or snapshot is cached (a page only once the normal route has loaded it: the only way in, so its
 *   id has passed the route's validation). Caches are only trusted while the change bus is live
 *   (MemoCache), so a lost LISTEN connection sends everything the normal way;
 * - the app is not closing (then the normal path answers 503 and closes the connection).
 * A snapshot 200 (megabytes, once per build) always takes the normal path.
 * The response carries the same headers and bytes as the route's, the same access-log line, and is
 * counted in the same request metrics; test/modules/fast-reads.test.ts compares the two.
 */
export interface FastReadSources {
  projectIdOfKey(apiKey: string): string | undefined;
  /** The cached published page (bytes and ETag) in the locale asked (undefined: none asked); undefined when not cached. */
  page(projectId: string, pageId: string, locale?: string, fallback?: boolean): CachedJson | undefined;
  snapshotEtag(projectId: string, locale?: string): string | undefined;
}

const CONTENT_PREFIX = '/v1/content/';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Headers that send a request the normal way whatever their value: credentials other than the
 * publishable key (Authorization; x-cms-preview, whose unknown token must get its 401), a project
 * the normal path checks against the key, CORS (Origin), and a request body.
 */
const RULED_OUT = new Set([
  'authorization',
  'x-cms-preview',
  'x-cms-project-id',
  'origin',
  'content-length',
  'transfer-encoding',
]);

/** What the fast path reads of a request's headers; undefined when one of them rules it out. */
interface FastHeaders {
  apiKey: string;
  ifNoneMatch: string | undefined;
  requestId: string | undefined;
}

/**
 * The headers the fast path needs, read from `rawHeaders` (name, value, name, value...) instead of
 * `req.headers`, which Node builds on first access, a property per header: that build cost more than
 * the whole decision here (bench/results/speed-notes.md, round 11). The answers are `req.headers`'s:
 * names compared without case, repeated values joined with ", " as Node joins them. Undefined as
 * soon as a header sends the request the normal way, a repeated x-cms-key included.
 */
function fastHeaders(raw: string[]): FastHeaders | undefined {
  let apiKey: string | undefined;
  let ifNoneMatch: string | undefined;
  let requestId: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    // Most names are not ours: the length alone rules them out before any lower-casing.
    switch (name.length) {
      case 6: // origin
      case 14: // content-length
      case 16: // x-cms-project-id
      case 17: // transfer-encoding
        if (RULED_OUT.has(name.toLowerCase())) return undefined;
        break;
      // Each name is compared as sent first: clients mostly send them in lower case, and
      // toLowerCase makes a new string (a measurable share of a 304).
      case 9:
        if (name === 'x-cms-key' || name.toLowerCase() === 'x-cms-key') {
          if (apiKey !== undefined) return undefined;
          apiKey = value;
        }
        break;
      case 12:
        if (name === 'x-request-id' || name.toLowerCase() === 'x-request-id')
          requestId = requestId === undefined ? value : `${requestId}, ${value}`;
        break;
      case 13: {
        const lower = name === 'if-none-match' ? name : name.toLowerCase();
        if (lower === 'if-none-match')
          ifNoneMatch = ifNoneMatch === undefined ? value : `${ifNoneMatch}, ${value}`;
        else if (RULED_OUT.has(lower)) return undefined;
        break;
      }
    }
  }
  return apiKey ? { apiKey, ifNoneMatch, requestId } : undefined;
}

/** The page id of a visitor page URL's path, or undefined when it is not one (or its escape is malformed). */
function pageIdOf(path: string): string | undefined {
  if (!path.startsWith(CONTENT_PREFIX)) return undefined;
  const segment = path.slice(CONTENT_PREFIX.length);
  if (segment === '' || segment.includes('/')) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // the normal route reports it
  }
}

/** A read's `?locale=` and `?fallback=`; NOT_FAST when the query holds anything else (or twice). */
interface ReadQuery {
  locale: string | undefined;
  fallback: boolean;
}
const PLAIN: ReadQuery = { locale: undefined, fallback: true };
const EVERY: ReadQuery = { locale: '*', fallback: true };
const NOT_FAST = undefined;

function readQueryOf(query: string, fallbackAllowed: boolean): ReadQuery | undefined {
  let locale: string | undefined;
  let fallback: boolean | undefined;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq);
    const value = part.slice(eq + 1);
    // '+' and escapes other than '%2A' ('*') and '%2a' would need the normal parser's decoding.
    if (eq === -1 || value === '' || value.includes('+')) return NOT_FAST;
    if (name === 'locale' && locale === undefined) {
      locale = value === '%2A' || value === '%2a' ? '*' : value;
      if (locale.includes('%')) return NOT_FAST;
    } else if (name === 'fallback' && fallbackAllowed && fallback === undefined) {
      if (value !== 'true' && value !== 'false') return NOT_FAST;
      fallback = value === 'true';
    } else return NOT_FAST;
  }
  return { locale, fallback: fallback ?? true };
}

export function createFastReads(
  sources: FastReadSources,
  /** The app's access log; null when the level drops access lines. */
  access: AccessLog | null,
  /** Told of each answer given here (the request metrics), with its status and the time it took. */
  onAnswered?: (kind: 'page' | 'snapshot', status: 200 | 304, seconds: number) => void,
  /** The app's own closing flag: from then on everything takes the normal path (its 503). */
  closing: () => boolean = () => false,
) {
  function answer(
    res: ServerResponse,
    req: IncomingMessage,
    given: string | undefined,
    kind: 'page' | 'snapshot',
    status: 200 | 304,
    etag: string,
    body: Buffer | undefined,
    started: number,
  ): true {
    const id = requestIdOf(given);
    // Headers as a flat [name, value, ...] list: node validates and writes them the same way as an
    // object's, but walks the list by index instead of a for-in with an own-property check and a
    // megamorphic keyed load per header (in the 304's profile, round 14).
    if (body) {
      res.writeHead(200, [
        'x-request-id',
        id,
        'etag',
        etag,
        'cache-control',
        'no-cache',
        'content-type',
        JSON_TYPE,
        'vary',
        'Origin',
        'content-length',
        body.length,
      ]);
      res.end(body);
    } else {
      // The snapshot's route also varies on Accept-Encoding (it is kept and sent gzip-compressed).
      const vary = kind === 'snapshot' ? 'Accept-Encoding, Origin' : 'Origin';
      res.writeHead(304, ['x-request-id', id, 'etag', etag, 'cache-control', 'no-cache', 'vary', vary]);
      res.end();
    }
    const elapsedMs = performance.now() - started;
    onAnswered?.(kind, status, elapsedMs / 1000);
    access?.write({
      reqId: id,
      method: 'GET',
      url: req.url ?? '',
      statusCode: status,
      responseTimeMs: elapsedMs,
    });
    return true;
  }

  /** True when it answered; false to let Fastify handle the request. */
  function fastRead(req: IncomingMessage, res: ServerResponse): boolean {
    if (closing() || req.method !== 'GET') return false;
    const headers = fastHeaders(req.rawHeaders);
    if (!headers) return false;
    const started = performance.now();
    const projectId = sources.projectIdOfKey(headers.apiKey.trim());
    if (!projectId) return false;
    const url = req.url ?? '';
    const { ifNoneMatch, requestId } = headers;
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    if (path === '/v1/snapshot') {
      // The build's own revalidation (`?locale=*`, as the SDK and CLI send it) needs no parsing.
      const rest = mark === -1 ? '' : url.slice(mark + 1);
      const query =
        mark === -1 ? PLAIN : rest === 'locale=*' || rest === 'locale=%2A' ? EVERY : readQueryOf(rest, false);
      const etag = ifNoneMatch && query ? sources.snapshotEtag(projectId, query.locale) : undefined;
      if (!etag || !etagMatches(ifNoneMatch, etag)) return false;
      return answer(res, req, requestId, 'snapshot', 304, etag, undefined, started);
    }
    const pageId = pageIdOf(path);
    const query = mark === -1 ? PLAIN : readQueryOf(url.slice(mark + 1), true);
    const page =
      pageId === undefined || query === undefined
        ? undefined
        : sources.page(projectId, pageId, query.locale, query.fallback);
    if (!page) return false;
    if (etagMatches(ifNoneMatch, page.etag))
      return answer(res, req, requestId, 'page', 304, page.etag, undefined, started);
    return answer(res, req, requestId, 'page', 200, page.etag, page.body, started);
  }

  return fastRead;
}
