import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type FieldProblem, validationFailed } from '../shared/errors.js';
import { appendRouteHook } from './route-hooks.js';

/**
 * One rule for every string the API accepts, before the schemas run (issue 10 #4, #5):
 * - no NUL character: PostgreSQL text cannot hold one (the insert failed with a 500) and SQLite
 *   would store what PostgreSQL refuses, so both dialects refuse it the same way;
 * - no lone surrogate: it has no UTF-8 form, so canonical JSON, hashing and PostgreSQL all fail on it;
 * - JSON bodies nest at most MAX_DEPTH levels: deeper values overflowed the stack of the recursive
 *   field checks (a 500); no document Folio stores needs more.
 * Path parameters, the query string and the JSON body are checked (headers cannot carry either
 * character through Node's parser; a multipart file name is cleaned of control characters where it
 * is read). A GET has no body, so the hot read paths pay only for their one or two short parameters.
 */
export const MAX_DEPTH = 64;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// What could be either: one scan of a plain class clears almost every string, so the lookarounds
// above run only on text that holds a surrogate or a NUL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it looks for
const SUSPECT = /[\u0000\ud800-\udfff]/;
const TEXT_MESSAGE = 'must not contain a NUL character or an unpaired surrogate';
const DEPTH_MESSAGE = `must not nest deeper than ${MAX_DEPTH} levels`;

export const isBadText = (text: string): boolean =>
  SUSPECT.test(text) && (text.includes('\u0000') || LONE_SURROGATE.test(text));

/**
 * The first problem in `value`. A recursion that stops at MAX_DEPTH, so it cannot overflow the
 * stack; it allocates nothing per value (a save of 1,000 objects is some 70,000 strings: the walk
 * with a node object per value cost 20 ms of it), and keeps the keys it is under in `keys`, so the
 * path is joined only for the value that failed.
 */
export function inputProblem(value: unknown, root: string): FieldProblem | null {
  const keys: (string | number)[] = [root];
  const message = problemIn(value, 0, keys);
  return message === null ? null : { path: pathOf(keys), message };
}

/**
 * Keys after dots, array indices (kept as numbers) in brackets: the one path syntax of error
 * `details` (src/shared/problem-paths.ts).
 */
const pathOf = (keys: (string | number)[]) =>
  keys.reduce<string>(
    (path, key, i) =>
      i === 0 ? String(key) : typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`,
    '',
  );

/** The message of the first problem under `value`, `keys` left as the path to it; null when none. */
function problemIn(value: unknown, depth: number, keys: (string | number)[]): string | null {
  if (typeof value === 'string') return isBadText(value) ? TEXT_MESSAGE : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return DEPTH_MESSAGE;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (child === null || (typeof child !== 'object' && typeof child !== 'string')) continue;
      keys.push(i);
      const message = problemIn(child, depth + 1, keys);
      if (message !== null) return message;
      keys.pop();
    }
    return null;
  }
  const object = value as Record<string, unknown>;
  const names = Object.keys(object);
  for (let i = 0; i < names.length; i++) {
    const key = names[i] as string;
    keys.push(key);
    if (isBadText(key)) return `property names ${TEXT_MESSAGE}`;
    const message = problemIn(object[key], depth + 1, keys);
    if (message !== null) return message;
    keys.pop();
  }
  return null;
}

/** Path parameters and queries are flat maps of short strings: checked without the walk's allocations. */
function urlProblem(values: unknown, root: string): FieldProblem | null {
  if (values === null || typeof values !== 'object') return null;
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string') {
      if (isBadText(value)) return { path: `${root}.${key}`, message: TEXT_MESSAGE };
    } else if (value !== null && typeof value === 'object') {
      const problem = inputProblem(value, `${root}.${key}`); // a repeated query parameter: an array
      if (problem) return problem;
    }
    if (isBadText(key)) return { path: `${root}.${key}`, message: `property names ${TEXT_MESSAGE}` };
  }
  return null;
}

/**
 * Route-level hooks, only on routes that take the input (see route-hooks.ts for why not app-wide).
 * Path and query are checked on request, before authentication, which looks up the project of
 * `/v1/projects/:id` in the database; the body once parsed, before the schemas.
 */
export function installInputTextRule(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    if (schema.params || schema.querystring) {
      appendRouteHook(
        route,
        'onRequest',
        (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
          const problem = urlProblem(request.params, 'params') ?? urlProblem(request.query, 'query');
          done(problem ? validationFailed('The request is not valid.', [problem]) : undefined);
        },
      );
    }
    if (schema.body) {
      appendRouteHook(
        route,
        'preValidation',
        (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
          const problem = request.body === undefined ? null : inputProblem(request.body, 'body');
          done(problem ? validationFailed('The request is not valid.', [problem]) : undefined);
        },
      );
    }
  });
}
