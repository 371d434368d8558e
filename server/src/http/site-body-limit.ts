import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppError, payloadTooLarge } from '../shared/errors.js';
import { appendRouteHook } from './route-hooks.js';

/**
 * The publishable key ships in every visitor's browser, so anyone may send what it may send
 * (contract §23 "cheap refusals"): a body over SITE_BODY_LIMIT_BYTES with it alone (no session, no
 * secret key beside it) is a 413 before it is read whole. The general limit (CMS_BODY_LIMIT_BYTES,
 * 5 MB by default, enforced by Fastify) stays for members: a session or a secret key.
 *
 * Two cuts, both before the JSON parser sees a byte:
 * - a Content-Length over the limit: answered at once, the connection closed after the answer so
 *   the rest is never read;
 * - a chunked body (no Content-Length): counted as it streams in and cut at the first byte over.
 * Rejected: Fastify's per-route `bodyLimit`, which is per route, not per credential (a member's sync
 * of the same route may be larger); and a limit checked after parsing, which is the cost this avoids.
 */
export const SITE_BODY_LIMIT_BYTES = 1024 * 1024;

/** The 413 of a publishable-key body over its limit (also the document's example). */
export const siteBodyTooLarge = (): AppError =>
  payloadTooLarge(
    `A request with the publishable key alone may carry at most ${SITE_BODY_LIMIT_BYTES / 1024 / 1024} MB; sync larger declarations with a member's session or a write secret key.`,
  );

/** Whether the request is the site's: the publishable key (or a preview token beside it), no member. */
const isSiteCaller = (request: FastifyRequest): boolean => {
  const { via, session, secretKey } = request.auth;
  return (via === 'publishableKey' || via === 'preview') && session === null && secretKey === null;
};

/** Passes chunks through until more than `limit` bytes went by, then fails with the 413. */
class Cut extends Transform {
  receivedEncodedLength = 0; // Fastify compares it with Content-Length (see its preParsing docs)
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    if (this.receivedEncodedLength > this.limit) callback(siteBodyTooLarge());
    else callback(null, chunk);
  }
}

/**
 * On every route whose access rule takes the publishable key and whose schema has a body: a
 * preParsing hook, appended after the route's own (a definitions sync is admitted first: a locked
 * project's sync is its 403 whatever its size). The credential is known by then (auth runs on request).
 */
export function installSiteBodyLimit(app: FastifyInstance, limit = SITE_BODY_LIMIT_BYTES): void {
  app.addHook('onRoute', (route) => {
    if (!route.schema?.body || !route.config?.access?.allow.includes('publishableKey')) return;
    appendRouteHook(
      route,
      'preParsing',
      async (request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream) => {
        if (!isSiteCaller(request)) return payload;
        if (Number(request.headers['content-length']) > limit) {
          reply.header('connection', 'close');
          throw siteBodyTooLarge();
        }
        const cut = new Cut(limit);
        // pipe, not pipeline: a cut must not destroy the socket before the 413 is written; Fastify
        // closes the connection after an error while parsing.
        payload.pipe(cut);
        return cut;
      },
    );
  });
}
