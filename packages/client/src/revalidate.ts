import type { Middleware } from 'openapi-fetch';

/**
 * Opt-in conditional GETs (`createFolioClient({ revalidate: true })`). Folio's published reads
 * (content, snapshot, objects) answer an `ETag` with `Cache-Control: no-cache`: keep the copy, and ask
 * again with `If-None-Match`. This middleware does it: it remembers each GET answer that carries an
 * ETag, sends `If-None-Match` the next time (unless the call set its own), and turns the 304 into the
 * remembered answer, so the caller always gets data (`revalidated: true` on the result says it was a 304).
 * Answers marked `no-store` (a session's drafts) are never kept. Keyed by URL and credentials, so one
 * credential never sees another's copy; the oldest entries go past `maxEntries`.
 */
export const REVALIDATED_HEADER = 'x-folio-revalidated';

interface Kept {
  etag: string;
  body: string;
  headers: [string, string][];
}

export function revalidationCache(maxEntries = 200): Middleware {
  const kept = new Map<string, Kept>();
  const asked = new Map<string, string>(); // request id -> cache key, for requests we made conditional

  const keyOf = (request: Request) =>
    [
      request.url,
      request.headers.get('authorization') ?? '',
      request.headers.get('x-cms-key') ?? '',
      request.headers.get('x-cms-project-id') ?? '',
    ].join('\n');

  return {
    onRequest({ request, id }) {
      if (request.method !== 'GET' || request.headers.has('if-none-match')) return undefined;
      const key = keyOf(request);
      const copy = kept.get(key);
      if (copy) request.headers.set('if-none-match', copy.etag);
      asked.set(id, key);
      return request;
    },
    async onResponse({ response, id }) {
      const key = asked.get(id);
      if (key === undefined) return undefined;
      asked.delete(id);
      const copy = kept.get(key);
      if (response.status === 304 && copy) {
        kept.delete(key); // most recently used goes last
        kept.set(key, copy);
        const headers = new Headers(copy.headers);
        headers.delete('content-length');
        headers.set(REVALIDATED_HEADER, 'true');
        return new Response(copy.body, { status: 200, headers });
      }
      const etag = response.headers.get('etag');
      const noStore = /no-store/i.test(response.headers.get('cache-control') ?? '');
      if (response.status === 200 && etag && !noStore) {
        kept.delete(key);
        kept.set(key, { etag, body: await response.clone().text(), headers: [...response.headers] });
        if (kept.size > maxEntries) kept.delete(kept.keys().next().value as string);
      } else if (response.status === 200) {
        kept.delete(key);
      }
      return undefined;
    },
  };
}
