import type { RouteOptions } from 'fastify';
import type { AppError } from '../shared/errors.js';
import type { AccessRule } from './access.js';
import { ERROR_CODES, errorDescription, errorResponses } from './openapi-errors.js';
import { ERROR_EXAMPLES } from './schemas.js';

/**
 * @fastify/swagger's per-route `transform`: turns a route's schemas into its operation in the
 * document. Nothing here changes how a request is validated or a reply serialised (it works on
 * copies); it adds what the document needs and the route schemas cannot say on their own:
 * - error responses with the closed list of codes per status and true examples (openapi-errors.ts);
 * - header parameters: `x-cms-project-id` where the access rule lets a credential cover several
 *   projects, `If-None-Match` on conditional GETs (routes that declare a 304), and any `headers`
 *   schema the route declares (`If-Match`); `x-cms-key` is added afterwards (siteKeyParameters);
 * - response headers: `x-request-id` on every answer, `ETag`/`Cache-Control` on conditional GETs,
 *   `Retry-After` on 429 and 503;
 * - query parameters with a default are optional (Ajv fills the default in; a required flag would
 *   make a validating proxy refuse `GET /v1/objects?types=product`);
 * - `security: []` on routes outside /v1 (health, public media), which have no access rule.
 */

type JsonSchema = Record<string | symbol, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
};
type RouteSchema = Record<string, unknown> & {
  body?: JsonSchema;
  params?: JsonSchema;
  querystring?: JsonSchema;
  headers?: JsonSchema;
  response?: Record<string, JsonSchema>;
  consumes?: string[];
  security?: unknown;
};

/**
 * Paths that differ only by a parameter's name are one path to OpenAPI (and ambiguous to a router
 * reading the document). `GET /v1/content/:pageId` and `PATCH /v1/content/:entryId` share one, so the
 * document names that segment `{id}` for both and says in each operation what it holds. The server's
 * own parameter names are kept (renaming them would touch the handlers for no behaviour).
 */
const SHARED_SEGMENTS: Record<string, { from: string; to: string; description: string }> = {
  '/v1/content/:pageId': {
    from: 'pageId',
    to: 'id',
    description: 'The page path (`pageId`), URL-encoded: "/" is `%2F`, "/about" is `%2Fabout`.',
  },
  '/v1/content/:entryId': { from: 'entryId', to: 'id', description: 'The entry id (`ent_…`).' },
};

/** Response headers several operations share; the document refers to them (components.headers). */
export const CONDITIONAL_HEADERS = {
  ETag: {
    type: 'string',
    description: 'The version of this representation; send it back as `If-None-Match` to get a 304.',
    examples: ['"sha256:6f1ed002ab5595859014ebf0951522d9f6e1a5e9c1e3f5b6a5bb6c2c2e7b5a11"'],
  },
  'Cache-Control': {
    type: 'string',
    description:
      '`no-cache` on published reads (revalidate with If-None-Match); `private, no-store` when a session adds drafts; `public, max-age=31536000, immutable` on media files.',
    examples: ['no-cache'],
  },
};
export const REQUEST_ID = {
  'x-request-id': {
    type: 'string',
    description:
      'Names this request in the server logs; quote it when reporting a problem. A sane `x-request-id` sent with the request (1–128 of `A-Za-z0-9._:-`) is echoed, else one is made.',
    examples: ['5b0e4f1c-3c1f-4a5e-9d7b-2f6a8c9e0d14'],
  },
};
export const RETRY_AFTER = {
  'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds to wait before retrying.' },
};

export function documentRoute({
  schema,
  url,
  route,
}: {
  schema: unknown;
  url: string;
  route: RouteOptions;
}): { schema: RouteSchema; url: string } {
  // A plugin's root route ('/' under a prefix) is documented without the trailing slash.
  let path = url.length > 1 ? url.replace(/\/$/, '') : url;
  const source = (schema ?? {}) as RouteSchema;
  if (source.hide) return { schema: source, url: path };
  const rule = route.config?.access;
  const out: RouteSchema = { ...source };

  const shared = SHARED_SEGMENTS[path];
  if (shared && source.params) {
    path = path.replace(`:${shared.from}`, `:${shared.to}`);
    out.params = renameProperty(source.params, shared.from, shared.to, shared.description);
  }
  if (source.querystring) out.querystring = withOptionalDefaults(source.querystring);
  out.security ??= [];

  const conditional = Boolean(source.response?.['304']);
  out.headers = headerParameters(rule, conditional, source.headers);
  if (!out.headers) delete out.headers;

  const declared = new Map<number, AppError[]>();
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(source.response ?? {})) {
    const examples = response[ERROR_EXAMPLES] as AppError[] | undefined;
    if (examples) declared.set(Number(status), examples);
    else responses[status] = withHeaders(response, status, conditional && /^(200|304)$/.test(status));
  }
  const jsonBody = Boolean(source.body) && !(source.consumes ?? []).some((c) => c.startsWith('multipart/'));
  const errors = errorResponses({
    url: path,
    rule,
    body: source.body,
    jsonBody,
    params: source.params,
    querystring: source.querystring,
    declared,
  });
  for (const [status, examples] of errors) responses[status] = errorResponse(status, examples);
  out.response = responses;
  return { schema: out, url: path };
}

function renameProperty(schema: JsonSchema, from: string, to: string, description: string): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([k, v]) =>
      k === from ? [to, { ...v, description }] : [k, v],
    ),
  );
  return { ...schema, properties, required: schema.required?.map((r) => (r === from ? to : r)) };
}

function withOptionalDefaults(schema: JsonSchema): JsonSchema {
  const properties = schema.properties ?? {};
  const required = schema.required?.filter((name) => properties[name]?.default === undefined);
  return { ...schema, required: required?.length ? required : undefined };
}

function headerParameters(
  rule: AccessRule | undefined,
  conditional: boolean,
  declared: JsonSchema | undefined,
): JsonSchema | undefined {
  const properties: Record<string, JsonSchema> = {};
  if (rule?.project && !rule.projectFromParam && !rule.requireSiteKey) {
    properties['x-cms-project-id'] = {
      type: 'string',
      description:
        'The project, when the credential (a session of several projects, a secret key of several sites) does not name one.',
      examples: ['prj_01JD3ZH0000000000000000000'],
    };
  }
  if (conditional) {
    properties['If-None-Match'] = {
      type: 'string',
      description: 'The `ETag` of the copy you hold; 304 with no body while it is current.',
      examples: ['"sha256:6f1ed002ab5595859014ebf0951522d9f6e1a5e9c1e3f5b6a5bb6c2c2e7b5a11"'],
    };
  }
  const merged = { ...properties, ...(declared?.properties ?? {}) };
  if (Object.keys(merged).length === 0) return undefined;
  return { type: 'object', properties: merged, required: declared?.required };
}

const SUCCESS: Record<string, string> = { '200': 'OK', '201': 'Created', '206': 'Partial content' };

function withHeaders(response: JsonSchema, status: string, conditional: boolean): JsonSchema {
  const declared = (response.headers ?? {}) as Record<string, unknown>;
  return {
    ...response,
    description: response.description ?? SUCCESS[status] ?? 'Success',
    headers: { ...REQUEST_ID, ...(conditional ? CONDITIONAL_HEADERS : {}), ...declared },
  };
}

function errorResponse(
  status: number,
  examples: ReturnType<typeof errorResponses> extends Map<number, infer E> ? E : never,
) {
  const codes = examples.map((e) => e.code);
  const schema = {
    type: 'object',
    required: ['data', 'error'],
    properties: {
      data: { type: 'null' },
      error: {
        allOf: [ERROR_BODY],
        type: 'object',
        required: ['code'],
        properties: { code: { type: 'string', enum: codes } },
      },
    },
  };
  return {
    description: `${errorDescription(status)}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
    headers: status === 429 || status === 503 ? { ...REQUEST_ID, ...RETRY_AFTER } : REQUEST_ID,
    content: {
      'application/json': {
        schema,
        examples: Object.fromEntries(
          examples.map((e) => [e.code, { summary: e.message, value: { data: null, error: e } }]),
        ),
      },
    },
  } as unknown as JsonSchema;
}

/** The error object every failure carries; `code` is one of a closed list (named `Error` below). */
const ERROR_BODY = {
  title: 'Error',
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: {
      title: 'ErrorCode',
      type: 'string',
      enum: ERROR_CODES,
      description: 'Stable; branch on it. Each response lists the codes its status can carry.',
    },
    message: { type: 'string', description: 'For people; may change.' },
    details: {
      description:
        'Per code: `validation_failed` lists `[{ path, message }]`; `rate_limited` gives `retryAfterSeconds`; `precondition_failed` gives `currentVersion`; `internal_error` gives `requestId`; `conflict` may give `limit`.',
    },
  },
};

type DocumentOperation = {
  security?: Record<string, unknown>[];
  parameters?: { in: string; name: string; [key: string]: unknown }[];
};

/**
 * `x-cms-key` as a header parameter of every operation that takes the publishable key. It is the
 * `publishableKey` security scheme already, and @fastify/swagger drops a route's header parameter
 * that repeats a security scheme of the operation; it is listed again here (optional: which credentials
 * a call needs is its `security`) so readers and generated clients see the header beside the others.
 */
export function siteKeyParameters<P extends Record<string, Record<string, object>>>(paths: P): P {
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods) as DocumentOperation[]) {
      const security = operation.security ?? [];
      if (!security.some((requirement) => 'publishableKey' in requirement)) continue;
      const both = security.some((r) => 'publishableKey' in r && 'session' in r);
      const parameters = operation.parameters ?? [];
      const firstHeader = parameters.findIndex((p) => p.in === 'header');
      parameters.splice(firstHeader === -1 ? parameters.length : firstHeader, 0, {
        in: 'header',
        name: 'x-cms-key',
        required: false,
        description: both
          ? "The site's publishable key (`cms_pk_…`); this operation needs it beside the session (see `security`)."
          : "The site's publishable key (`cms_pk_…`): it names the project and authorises the call (see `security`).",
        schema: { type: 'string' },
        example: 'cms_pk_3q2x7yQm0rVb1xk9HdWw8sJt4Lp6Nc5e',
      });
      operation.parameters = parameters;
    }
  }
  return paths;
}
