import {
  CONTENT_TYPES,
  JUNK_CREDENTIALS,
  multipartBody,
  ODD_HEADERS,
  ODD_INTEGERS,
  ODD_PATH_SEGMENTS,
  ODD_STRINGS,
  oddValue,
  PROTO_KEYS,
  RAW_BODIES,
  serialize,
} from './corpus.js';
import type { Rng } from './random.js';

/**
 * Malformed requests generated from the app's own OpenAPI document: for each operation, its path
 * parameters, query, headers and body, each either plausible (from the documented example or the
 * schema) or broken on purpose. Pure: the same (operation, fixtures, rng) give the same request.
 */

type Schema = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  params: { in: 'path' | 'query' | 'header'; name: string; schema: Schema }[];
  body?: { mediaType: string; schema: Schema; example?: unknown };
  /** The credentials of its first security alternative (`session`, `publishableKey`, `secretKey`). */
  credentials: string[];
}

export interface Fixtures {
  session: string;
  publishableKey: string;
  secretKey: string;
  projectId: string;
  /** Real ids a path parameter may take, by the name of the collection before it ("users"). */
  ids: Record<string, string[]>;
  /** A small real PNG, for uploads that should get as far as the media service. */
  png: Buffer;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** A query integer written as §23 refuses it (`03`, `+1`...): the answer must not be a success. */
  oddInteger?: string;
}

/** Operations that would end the fuzz run's own credentials: they get junk credentials only. */
const CREDENTIAL_KILLERS = new Set([
  'POST /v1/auth/logout',
  'POST /v1/auth/refresh',
  'POST /v1/projects/{id}/rotate-key',
]);

export function operationsOf(doc: {
  paths: Record<string, Record<string, any>>;
  components?: any;
}): Operation[] {
  const resolve = (schema: Schema | undefined): Schema => {
    if (schema?.$ref) return doc.components.schemas[schema.$ref.split('/').pop()] ?? {};
    return schema ?? {};
  };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      // A stream (GET /v1/live) that is opened never ends, so inject would wait on it forever; its
      // bad input is tested in test/modules/live.test.ts.
      if (op.responses?.['200']?.content?.['text/event-stream']) continue;
      const content = op.requestBody?.content ?? {};
      const mediaType = Object.keys(content)[0];
      ops.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p: any) => ({
          in: p.in,
          name: p.name,
          schema: resolve(p.schema),
        })),
        body: mediaType
          ? { mediaType, schema: resolve(content[mediaType].schema), example: content[mediaType].example }
          : undefined,
        credentials: Object.keys(op.security?.[0] ?? {}),
      });
    }
  }
  return ops;
}

/** A plausible value for `schema`: its example, its enum, or built from its type. */
function plausible(schema: Schema, r: Rng, depth = 0): unknown {
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return r.pick(schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return plausible(r.pick(alternatives), r, depth);
  const type = Array.isArray(schema.type) ? r.pick(schema.type) : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uri' || schema.format === 'url') return 'http://127.0.0.1:9/x';
      if (schema.format === 'date-time') return new Date(0).toISOString();
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return r.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      if (depth > 4) return [];
      const n = Math.max(schema.minItems ?? 0, 1);
      return Array.from({ length: n }, () => plausible(schema.items ?? {}, r, depth + 1));
    }
    case 'object': {
      if (depth > 4) return {};
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
        if (schema.required?.includes(key) || r.chance(0.5)) out[key] = plausible(sub, r, depth + 1);
      }
      return out;
    }
    default:
      return r.chance(0.5) ? 'x' : { a: 1 };
  }
}

/** Outbound URLs in examples point at a closed local port, so no test sends or resolves anything. */
function localised(value: unknown): unknown {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? 'http://127.0.0.1:9/x' : value;
  if (Array.isArray(value)) return value.map(localised);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localised(v)]));
  return value;
}

/** Breaks `value` in 1–3 places: a node replaced by an odd value, a property dropped or added. */
function mutate(value: unknown, r: Rng): unknown {
  let out = structuredClone(value);
  const mutations = 1 + r.int(3);
  for (let m = 0; m < mutations; m++) {
    const containers: unknown[] = [];
    const walk = (v: unknown, depth: number) => {
      if (v && typeof v === 'object' && depth < 8) {
        containers.push(v);
        for (const child of Object.values(v)) walk(child, depth + 1);
      }
    };
    walk(out, 0);
    if (containers.length === 0 || r.chance(0.1)) {
      out = oddValue(r);
      continue;
    }
    const target = r.pick(containers) as Record<string, unknown>;
    const keys = Object.keys(target);
    const action = r.int(3);
    if (action === 0 && keys.length) target[r.pick(keys)] = oddValue(r);
    else if (action === 1 && keys.length) delete target[r.pick(keys)];
    else
      target[
        Array.isArray(target)
          ? String(keys.length)
          : r.pick(['extra', ...PROTO_KEYS, '', '\u0000', r.pick(ODD_STRINGS).slice(0, 50)])
      ] = oddValue(r);
  }
  return out;
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) becomes invalid UTF-8 bytes. */
function encode(text: string): string {
  return Array.from(text, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      return '%ED%A0%80';
    }
  }).join('');
}

function pathValue(name: string, collection: string, fx: Fixtures, r: Rng): string {
  const real = fx.ids[name] ?? fx.ids[collection] ?? [];
  if (real.length && r.chance(0.5)) return encode(r.pick(real));
  if (r.chance(0.4)) return r.pick(ODD_PATH_SEGMENTS);
  const value = oddValue(r);
  // An object whose own toString is a string (a prototype-named key) cannot be made a string.
  const text =
    value !== null && typeof value === 'object' && Object.hasOwn(value, 'toString') ? '{}' : String(value);
  return encode(text.slice(0, 3_000)) || 'x';
}

function queryValue(schema: Schema, r: Rng): string {
  if (r.chance(0.3)) return encode(String(plausible(schema, r)));
  if (r.chance(0.3))
    return r.pick(['%00', 'a%00b', '%ED%A0%80', '%ZZ', '-1', '0', '1e9', 'abc', '', '1.5', 'true,false']);
  return encode(r.pick(ODD_STRINGS).slice(0, 3_000));
}

export function generate(op: Operation, fx: Fixtures, r: Rng): FuzzRequest {
  const headers: Record<string, string> = {};
  const killer = CREDENTIAL_KILLERS.has(`${op.method} ${op.path}`);
  if (!killer && r.chance(0.9)) {
    // Real credentials, so requests get past authentication and reach validation.
    const creds = r.chance(0.1) ? [r.pick(['session', 'publishableKey', 'secretKey'])] : op.credentials;
    for (const c of creds) {
      if (c === 'session') headers.authorization = `Bearer ${fx.session}`;
      if (c === 'secretKey') headers.authorization = `Bearer ${fx.secretKey}`;
      if (c === 'publishableKey') headers['x-cms-key'] = fx.publishableKey;
    }
    if (creds.includes('secretKey') || r.chance(0.2)) headers['x-cms-project-id'] = fx.projectId;
  } else if (r.chance(0.7)) {
    const [name, value] = r.pick(JUNK_CREDENTIALS);
    headers[name] = value;
  }
  const extraHeaders = r.int(3);
  for (let i = 0; i < extraHeaders; i++) {
    const [name, value] = r.pick(ODD_HEADERS);
    headers[name] = value;
  }

  const segments = op.path.split('/');
  const path = segments
    .map((segment, i) => {
      const match = /^\{(.+)\}$/.exec(segment);
      return match?.[1] ? pathValue(match[1], segments[i - 1] ?? '', fx, r) : segment;
    })
    .join('/');

  const query: string[] = [];
  let oddInteger: string | undefined;
  for (const p of op.params.filter((p) => p.in === 'query')) {
    if (p.schema.type === 'integer' && r.chance(0.15)) {
      const odd = r.pick(ODD_INTEGERS);
      query.push(`${p.name}=${odd}`);
      oddInteger = `${p.name}=${odd}`;
    } else if (r.chance(0.6)) query.push(`${p.name}=${queryValue(p.schema, r)}`);
    if (r.chance(0.1)) query.push(`${p.name}=${queryValue(p.schema, r)}`); // repeated
  }
  if (r.chance(0.15))
    query.push(`${r.pick(['extra', ...PROTO_KEYS, 'a[b]', '%00', ''])}=${queryValue({}, r)}`);
  const url = query.length ? `${path}?${query.join('&')}` : path;

  const request: FuzzRequest = { method: op.method, url, headers, ...(oddInteger && { oddInteger }) };
  const wantsBody = op.body !== undefined || r.chance(0.1);
  if (!wantsBody) return request;

  if (op.body?.mediaType === 'multipart/form-data' || r.chance(0.05)) {
    const body = multipartBody(r, fx.png);
    headers['content-type'] = body.contentType;
    request.payload = body.payload;
    return request;
  }
  const roll = r.next();
  if (roll < 0.65) {
    const base = localised(op.body?.example ?? plausible(op.body?.schema ?? {}, r));
    const value = r.chance(0.05) ? base : mutate(base, r);
    headers['content-type'] = r.chance(0.9) ? 'application/json' : r.pick(CONTENT_TYPES);
    request.payload = serialize(value);
  } else if (roll < 0.9) {
    headers['content-type'] = r.chance(0.8) ? 'application/json' : r.pick(CONTENT_TYPES);
    request.payload = r.pick(RAW_BODIES);
  } else {
    headers['content-type'] = r.pick(CONTENT_TYPES);
    request.payload = JSON.stringify(op.body?.example ?? {});
  }
  return request;
}
