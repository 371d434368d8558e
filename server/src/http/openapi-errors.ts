import type { AppError, ErrorCode } from '../shared/errors.js';
import type { AccessRule } from './access.js';
import { missingCredentialMessage, previewHeaderRefused } from './auth.js';

/**
 * The error responses of one operation in the OpenAPI document: which statuses it can answer, the
 * closed list of `code` values each status carries there, and an example that route really produces.
 * Routes declare what their service throws (`errors(notFound('Entry'), 409)`); what every route of a
 * kind shares is added here from the route's access rule and schemas, so it is written once:
 * 401/403 from the access rule, 400/413/415 from a JSON body, 400 from parameters or from a stray
 * `x-cms-preview` header (every route whose rule takes no preview token), 500 everywhere and
 * 503 `unavailable` wherever the database is asked (every /v1 route: credentials are looked up there).
 */

/** The status each code is sent with. A Record, so a new ErrorCode fails the type check until placed. */
export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  invalid_json: 400,
  validation_failed: 400,
  project_required: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unpublishable: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
};

export const ERROR_CODES = Object.keys(STATUS_OF_CODE) as ErrorCode[];

const DESCRIPTION: Record<number, string> = {
  400: 'Invalid input; nothing was written',
  401: 'Missing, unknown or expired credential',
  403: 'The credential lacks the role, access level or site',
  404: 'Unknown resource, or one of another project',
  409: 'Conflict with the current state; nothing was written',
  412: 'If-Match names a version that is no longer current; nothing was written',
  413: 'Body over its limit',
  415: 'Unsupported media type',
  422: 'The content breaks rules of its definition, or (a definitions sync) its rules could not be checked within CMS_RULES_BUDGET_MS (`details`: every problem); nothing was published or written',
  429: 'Rate limited; retry after `Retry-After` seconds',
  500: 'Unexpected failure on our side; `details.requestId` names it in the logs',
  503: 'The database cannot be reached for this request; nothing was written. Retry after `Retry-After` seconds',
};

export interface ErrorExample {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

export interface OperationShape {
  url: string;
  rule: AccessRule | undefined;
  body: JsonSchema | undefined;
  /** The body is JSON (multipart uploads are read by the handler, not parsed as JSON). */
  jsonBody: boolean;
  params: JsonSchema | undefined;
  querystring: JsonSchema | undefined;
  /** What the route declared: status -> the AppErrors it named (possibly none). */
  declared: Map<number, AppError[]>;
}

/** Every error status of the operation with the examples that status shows, first one first. */
export function errorResponses(op: OperationShape): Map<number, ErrorExample[]> {
  const out = new Map<number, ErrorExample[]>();
  const add = (example: ErrorExample) => {
    const status = STATUS_OF_CODE[example.code];
    const list = out.get(status) ?? [];
    if (!list.some((e) => e.code === example.code)) list.push(example);
    out.set(status, list);
  };
  // What the route named first: those are the examples a reader should see.
  for (const [, errors] of op.declared) for (const e of errors) add(fromAppError(e));

  const rule = op.rule;
  const inputs = [op.body, op.params, op.querystring].some(Boolean);
  if (inputs || op.declared.has(400)) {
    const invalid = validationExample(op);
    if (invalid) add(invalid);
  }
  // Every route with an access rule that takes no preview token refuses the header (contract §16).
  if (rule && rule.preview === undefined) add(fromAppError(previewHeaderRefused()));
  if (op.jsonBody) add({ code: 'invalid_json', message: 'The request body is not valid JSON.' });
  if (rule?.project) {
    // Where the path or the site key names the project, the only 400 of this kind is a header naming
    // another one; elsewhere a session or secret key of several projects must name one.
    const named = rule.projectFromParam || rule.requireSiteKey;
    add({
      code: 'project_required',
      message: named
        ? 'The request names two different projects (path, x-cms-key or x-cms-project-id).'
        : 'Name the project with the x-cms-project-id header; this credential covers several.',
    });
  }
  if (rule && rule.allow.length > 0) add({ code: 'unauthorized', message: missingCredentialMessage(rule) });
  if (rule && rule.allow.length > 0) add(forbiddenExample(rule));
  if (op.jsonBody) {
    add({ code: 'payload_too_large', message: 'Request body is too large' });
    add({ code: 'unsupported_media_type', message: 'Unsupported Media Type: text/plain' });
  }
  for (const status of op.declared.keys()) {
    if (!out.has(status)) add(genericExample(status));
  }
  add({
    code: 'internal_error',
    message: 'Something went wrong on our side.',
    details: { requestId: '5b0e4f1c-3c1f-4a5e-9d7b-2f6a8c9e0d14' },
  });
  if (op.url.startsWith('/v1/')) {
    add({ code: 'unavailable', message: 'The service is briefly unavailable. Try again.' });
  }
  return new Map([...out].sort(([a], [b]) => a - b));
}

export function errorDescription(status: number): string {
  return DESCRIPTION[status] ?? 'Error';
}

function fromAppError(e: AppError): ErrorExample {
  return e.details === undefined
    ? { code: e.code, message: e.message }
    : { code: e.code, message: e.message, details: e.details };
}

function forbiddenExample(rule: AccessRule): ErrorExample {
  if (rule.role === 'admin' || rule.role === 'editor') {
    return { code: 'forbidden', message: `This action needs the ${rule.role} role.` };
  }
  if (rule.project) return { code: 'forbidden', message: 'You are not a member of this project.' };
  // A session-only route without a project refuses secret keys (the one 403 the auth hook gives it).
  return { code: 'forbidden', message: 'Secret API keys cannot call this route; sign in with a session.' };
}

function genericExample(status: number): ErrorExample {
  const code = ERROR_CODES.find((c) => STATUS_OF_CODE[c] === status) ?? 'internal_error';
  const messages: Partial<Record<ErrorCode, string>> = {
    not_found: 'Resource not found.',
    rate_limited: 'Too many attempts. Try again later.',
    precondition_failed: 'This was changed since you loaded it.',
  };
  return { code, message: messages[code] ?? 'The request cannot be completed.' };
}

/**
 * A validation failure this route really answers, in the error handler's shape: a missing required
 * body property, else an unknown one on a strict body, else a path or query parameter out of range.
 */
function validationExample(op: OperationShape): ErrorExample | null {
  const problem = (path: string, message: string): ErrorExample => ({
    code: 'validation_failed',
    message: 'The request is not valid.',
    details: [{ path, message }],
  });
  const body = op.jsonBody ? op.body : undefined;
  if (body?.required?.[0]) {
    return problem(`body.${body.required[0]}`, `must have required property '${body.required[0]}'`);
  }
  if (body && body.additionalProperties === false)
    return problem('body.unknown', 'is not an allowed property');
  for (const [part, schema] of [
    ['params', op.params],
    ['querystring', op.querystring],
  ] as const) {
    for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
      if (typeof prop.maxLength === 'number') {
        return problem(`${part}.${name}`, `must NOT have more than ${prop.maxLength} characters`);
      }
      if (typeof prop.maximum === 'number') return problem(`${part}.${name}`, `must be <= ${prop.maximum}`);
    }
    if (schema?.additionalProperties === false && part === 'querystring') {
      return problem('querystring.unknown', 'is not an allowed property');
    }
  }
  const declared = op.declared.get(400)?.[0];
  return declared ? fromAppError(declared) : null;
}
