import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromConstraint } from '../db/dialect/constraints.js';
import { isDatabaseUnavailable } from '../db/dialect/unavailable.js';
import { AppError, type ErrorCode, type FieldProblem, unavailable } from '../shared/errors.js';
import { pointerPath } from '../shared/problem-paths.js';

/**
 * One place that turns every failure into the contract's envelope: our AppErrors, Fastify's own
 * errors (schema validation, bad JSON, body limits, content types, unknown routes), a database that
 * cannot be reached (503 unavailable, src/db/dialect/unavailable.ts) and anything unexpected (500
 * with no internals; the cause is logged with the request id).
 */
export function installErrorHandling(
  app: FastifyInstance,
  /** Told of each request that matched no route (the request metrics count them; no route hook runs). */
  onNotFound?: (request: FastifyRequest, reply: FastifyReply, status: number) => void,
): void {
  app.setErrorHandler(async (thrown: FastifyError | AppError, request, reply) => {
    // A session let through on remembered facts (src/http/session-hints.ts) whose write did not
    // verify it is authenticated afresh before any error is answered: a revoked session gets its
    // 401 or 403, never a 400 or 404 that would tell it about the request.
    const { sessionCheck, recheck } = request.auth ?? {};
    if (sessionCheck && !sessionCheck.verified && recheck) {
      try {
        await recheck();
      } catch (err) {
        thrown = err as AppError;
      }
    }
    // A constraint violation no service named (a race the service's own checks did not foresee).
    const err = fromConstraint(thrown) as FastifyError | AppError;
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return send(reply, err.statusCode, err.code, err.message, err.details);
    }
    if ((err as FastifyError).validation) {
      const details = validationDetails(err as FastifyError, request);
      return send(reply, 400, 'validation_failed', 'The request is not valid.', details);
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status >= 500 && isDatabaseUnavailable(err)) {
      // Not our bug: the database dropped or refused the connection (restart, failover, overload).
      // One line without the stack; the client retries after Retry-After.
      request.log.warn({ error: (err as Error).message }, 'database unavailable');
      const answer = unavailable();
      reply.headers(answer.headers ?? {});
      return send(reply, answer.statusCode, answer.code, answer.message);
    }
    if (status >= 500) {
      request.log.error({ err }, 'unhandled error');
      return send(reply, 500, 'internal_error', 'Something went wrong on our side.', {
        requestId: request.id,
      });
    }
    const fastifyCode = (err as FastifyError).code;
    if (fastifyCode === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyCode === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return send(reply, 400, 'invalid_json', 'The request body is not valid JSON.');
    }
    if (err instanceof SyntaxError)
      return send(reply, 400, 'invalid_json', 'The request body is not valid JSON.');
    return send(reply, status, codeForStatus(status), err.message);
  });

  app.setNotFoundHandler((request, reply) => {
    onNotFound?.(request, reply, 404);
    send(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
  });
}

/**
 * Headers a route set for the body it meant to send: a media file's type, length, range and ETag. A
 * failure after they were set (the store's GET failing before the first byte) answers the envelope
 * instead, which they do not describe; left in place, `image/png` made Fastify refuse to serialize the
 * envelope and answer its own 500.
 */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'content-encoding',
  'content-disposition',
  'accept-ranges',
  'etag',
  'last-modified',
];

function send(reply: FastifyReply, status: number, code: ErrorCode, message: string, details?: unknown) {
  for (const name of BODY_HEADERS) reply.removeHeader(name);
  // Caching meant for the body (a media file's year of `immutable`) must not keep an error.
  const caching = reply.getHeader('cache-control');
  if (caching !== undefined && !String(caching).includes('no-store'))
    reply.header('cache-control', 'no-store');
  const error = details === undefined ? { code, message } : { code, message, details };
  return reply.code(status).send({ data: null, error });
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    default:
      return 'validation_failed';
  }
}

/** What each validation context checked, to tell an array's index from an object's key. */
const INPUT = {
  body: (request: FastifyRequest) => request.body,
  querystring: (request: FastifyRequest) => request.query,
  params: (request: FastifyRequest) => request.params,
  headers: (request: FastifyRequest) => request.headers,
} as const;

/**
 * Ajv errors as `[{ path: "body.components[0].fields[2].key", message }]`, one per failing path, in
 * the syntax our own checks use (src/shared/problem-paths.ts).
 */
function validationDetails(err: FastifyError, request: FastifyRequest): FieldProblem[] {
  const context = (err as FastifyError & { validationContext?: string }).validationContext ?? 'body';
  const input = INPUT[context as keyof typeof INPUT]?.(request);
  return (err.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    const extra = (params.missingProperty ?? params.additionalProperty) as string | undefined;
    const message = params.additionalProperty ? 'is not an allowed property' : (v.message ?? 'is invalid');
    return { path: pointerPath(context, v.instancePath, input, extra), message };
  });
}
