import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { CachedJson } from '../shared/cached-json.js';

/** If-None-Match against one ETag (RFC 9110 §13.1.2: weak comparison, a list, or `*`). */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true; // the usual case: the client sends back the one tag it holds
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  const strip = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const wanted = strip(etag);
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || strip(tag) === wanted;
  });
}

/**
 * Sends pre-serialised JSON bytes as they are (Fastify skips serialisation for a Buffer), or a 304
 * when the caller already holds them. Typed loosely on purpose: the bytes are the route's 200 schema
 * already serialised, which the type provider cannot see.
 */
export function sendCachedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedJson,
): FastifyReply {
  const raw = reply as FastifyReply;
  raw.header('etag', cached.etag).header('cache-control', 'no-cache');
  if (etagMatches(request.headers['if-none-match'], cached.etag)) return raw.code(304).send();
  return raw.header('content-type', 'application/json; charset=utf-8').send(cached.body);
}

export const NotModified = Type.Null({
  description: 'Not modified: If-None-Match matched the ETag; no body.',
});
