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
const TEXT_MESSAGE = 'must not contain a NUL character or an unpaired surrogate';

export const isBadText = (text: string): boolean => text.includes('\u0000') || LONE_SURROGATE.test(text);

interface Node {
  value: unknown;
  depth: number;
  parent: Node | null;
  key: string;
}

/** `body.fields.title`, built only for the node that failed (large bodies build no paths). */
function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | null = node; n; n = n.parent) keys.push(n.key);
  return keys.reverse().join('.');
}

/** The first problem in `value` (walked without recursion, so depth cannot overflow the stack). */
export function inputProblem(value: unknown, root: string): FieldProblem | null {
  const stack: Node[] = [{ value, depth: 0, parent: null, key: root }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const current = node.value;
    if (typeof current === 'string') {
      if (isBadText(current)) return { path: pathOf(node), message: TEXT_MESSAGE };
    } else if (current !== null && typeof current === 'object') {
      if (node.depth >= MAX_DEPTH)
        return { path: pathOf(node), message: `must not nest deeper than ${MAX_DEPTH} levels` };
      for (const [key, child] of Object.entries(current)) {
        if (isBadText(key))
          return { path: `${pathOf(node)}.${key}`, message: `property names ${TEXT_MESSAGE}` };
        stack.push({ value: child, depth: node.depth + 1, parent: node, key });
      }
    }
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
