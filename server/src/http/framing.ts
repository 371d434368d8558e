import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../shared/errors.js';

/**
 * Errors that happen before a request reaches a route, answered in the contract's envelope like
 * every other (issue 10: Fastify's and Node's own bodies leaked out). Two layers:
 * - the router (Fastify `frameworkErrors`): a URL whose percent-escapes do not decode, a path
 *   parameter over `MAX_PARAM_LENGTH`;
 * - Node's HTTP parser (Fastify `clientErrorHandler`, the server's 'clientError'): headers over
 *   Node's limit (431), an unknown method, bad framing (a malformed Content-Length or
 *   Transfer-Encoding, a NUL in a header), a request that took too long to arrive (408). No
 *   request exists yet, so the answer is written to the socket by hand and the socket closed.
 */

/**
 * Page paths are up to 512 characters and arrive percent-encoded as one path parameter (up to
 * 9 characters per character of UTF-8), so the router's default of 100 refused valid pages with 414.
 */
export const MAX_PARAM_LENGTH = 512 * 9;

const envelope = (code: ErrorCode, message: string) =>
  JSON.stringify({ data: null, error: { code, message } });

export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  reply
    .code(tooLong ? 414 : 400)
    .type('application/json; charset=utf-8')
    .send(
      envelope(
        'validation_failed',
        tooLong
          ? 'A path segment of the URL is too long.'
          : 'The URL is not valid: a percent-escape does not decode to UTF-8 text.',
      ),
    );
}

export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'payload_too_large', 'The request headers are too large.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'validation_failed', 'The request took too long to arrive.']
        : [400, 'validation_failed', 'The request is not valid HTTP.'];
  if (socket.writable) {
    const body = envelope(code, message);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
