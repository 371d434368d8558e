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

const LONG = 'A'.repeat(70_000);
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d\ude00',
  'e\u0301',
  '\u202eevil',
  '\ufeff',
  '\n',
  '\r\n',
  '\t',
  '"',
  "'",
  '\\',
  '%00',
  '%',
  '../..',
  '/',
  '//',
  '.',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  'http://',
  'http://127.0.0.1:9/x',
  'mailto:',
  '__proto__',
  'constructor',
  'null',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  ' padded ',
  'A'.repeat(300),
  'A'.repeat(5_000),
  LONG,
  'a@b.co',
  'ADA@EXAMPLE.COM',
  'prj_00000000000000000000000000',
  "' OR 1=1 --",
  '$' + '{jndi:ldap://x}',
];

/**
 * Deep nesting stands in the value tree as a marker string and is spliced into the JSON text at
 * the end (serialize): 5,000 levels built as objects would overflow JSON.stringify's own stack.
 */
const deep = (depth: number, kind: 'array' | 'object') => `\u0001deep:${kind}:${depth}\u0001`;

function serialize(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    /"\\u0001deep:(array|object):(\d+)\\u0001"/g,
    (_, kind: string, n: string) =>
      kind === 'array'
        ? `${'['.repeat(Number(n))}1${']'.repeat(Number(n))}`
        : `${'{"a":'.repeat(Number(n))}1${'}'.repeat(Number(n))}`,
  );
}

function oddValue(r: Rng): unknown {
  switch (r.int(8)) {
    case 0:
    case 1:
    case 2:
      return r.pick(ODD_STRINGS);
    case 3:
      return r.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, -0, 1e-300, 201, 65_536]);
    case 4:
      return r.pick([null, true, false]);
    case 5:
      return r.pick([
        [],
        {},
        [null],
        { '': null },
        ['x'],
        { a: [] },
        Array.from({ length: 3_000 }, (_, i) => i),
      ]);
    case 6:
      return deep(r.pick([40, 100, 5_000]), r.pick(['array', 'object'] as const));
    default:
      return { __proto__x: 1, constructor: { prototype: { polluted: true } } };
  }
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
          : r.pick(['extra', '__proto__', 'constructor', '', '\u0000', r.pick(ODD_STRINGS).slice(0, 50)])
      ] = oddValue(r);
  }
  return out;
}

const RAW_BODIES: readonly (string | Buffer)[] = [
  '',
  '{',
  '}',
  '[',
  'nul',
  'null',
  'true',
  '1',
  '"x"',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"a":2}',
  '\u0000',
  '\ufeff{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '['.repeat(10_000),
  '{"a":'.repeat(3_000),
  '1e99999',
  '"\\ud800"',
  '{"name":"\\u0000"}',
  '{"email":"\\udc00@x.co","password":"\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"}',
  Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
  Buffer.from('{"name":"\xff\xfe"}', 'latin1'),
];

const CONTENT_TYPES: readonly string[] = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  ';;;',
  'application/json, text/plain',
  'a/b; c=d',
];

/** Hand-built multipart bodies, valid and broken (issue 10 #6). */
function multipartBody(r: Rng, png: Buffer): { payload: Buffer; contentType: string } {
  const boundary = r.chance(0.1) ? 'b'.repeat(r.pick([70, 71, 200, 2_000])) : `fuzz${r.int(1e9)}`;
  const part = (headers: string, data: Buffer | string) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`),
      Buffer.from(data),
      Buffer.from('\r\n'),
    ]);
  const filename = r.pick([
    'image.png',
    'a\r\nb.png',
    'a\u0000.png',
    '\ud800.png',
    '',
    '../../etc/passwd',
    'x'.repeat(5_000),
    'a"b.png',
  ]);
  const file = () =>
    part(
      `Content-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png`,
      r.chance(0.5) ? png : Buffer.from(r.pick(ODD_STRINGS)),
    );
  let parts: Buffer[];
  switch (r.int(6)) {
    case 0:
      parts = [part('Content-Disposition: form-data; name="note"', 'hello')];
      break;
    case 1:
      parts = [file(), file()];
      break;
    case 2:
      parts = [part('Content-Type: image/png', png)];
      break;
    case 3:
      parts = [
        part(`Content-Disposition: form-data; name="${r.pick(ODD_STRINGS).slice(0, 100)}"`, 'v'),
        file(),
      ];
      break;
    default:
      parts = [file()];
  }
  let payload = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
  if (r.chance(0.25)) payload = payload.subarray(0, r.int(payload.length)); // truncated
  const contentType = r.pick([
    `multipart/form-data; boundary=${boundary}`,
    `multipart/form-data; boundary=${boundary}`,
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=other',
    `multipart/form-data; boundary="${boundary}"`,
    `multipart/mixed; boundary=${boundary}`,
  ]);
  return { payload, contentType };
}

const ODD_PATH_SEGMENTS: readonly string[] = [
  'a%00b',
  '%00',
  '%ZZ',
  '%',
  '%ED%A0%80',
  '%C0%AE',
  '%2F',
  '%2E%2E',
  '..',
  '%20',
  'x'.repeat(600),
  'x'.repeat(5_000),
  '%F0%9F%98%80',
  'prj_%27%20OR%201%3D1',
];

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
  return encode(String(oddValue(r)).slice(0, 3_000)) || 'x';
}

function queryValue(schema: Schema, r: Rng): string {
  if (r.chance(0.3)) return encode(String(plausible(schema, r)));
  if (r.chance(0.3))
    return r.pick(['%00', 'a%00b', '%ED%A0%80', '%ZZ', '-1', '0', '1e9', 'abc', '', '1.5', 'true,false']);
  return encode(r.pick(ODD_STRINGS).slice(0, 3_000));
}

const ODD_HEADERS: readonly [string, string][] = [
  ['x-cms-project-id', 'prj_nope'],
  ['x-cms-project-id', ''],
  ['x-cms-project-id', 'x'.repeat(5_000)],
  ['if-match', '"nope"'],
  ['if-match', '-1'],
  ['if-match', 'W/"1"'],
  ['if-none-match', '*'],
  ['if-none-match', '"x", W/"y"'],
  ['origin', 'https://evil.example'],
  ['origin', 'null'],
  ['x-request-id', 'x'.repeat(500)],
  ['x-request-id', '../\u00e9'],
  ['accept', 'text/html'],
  ['accept-encoding', 'gzip, br'],
  ['content-encoding', 'gzip'],
  ['range', 'bytes=5-1'],
  ['range', 'bytes=-999999999999'],
  ['x-forwarded-for', '::1, 10.0.0.1'],
];

/** Credentials that are not: sent instead of the real ones. */
const JUNK_CREDENTIALS: readonly [string, string][] = [
  ['authorization', 'Basic Zm9vOmJhcg=='],
  ['authorization', 'Bearer '],
  ['authorization', 'Bearer nope'],
  ['authorization', `Bearer cms_sk_${'x'.repeat(100)}`],
  ['authorization', `Bearer ${'x'.repeat(2_000)}`],
  ['x-cms-key', 'cms_pk_nope'],
  ['x-cms-key', ''],
];

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
  for (const p of op.params.filter((p) => p.in === 'query')) {
    if (r.chance(0.6)) query.push(`${p.name}=${queryValue(p.schema, r)}`);
    if (r.chance(0.1)) query.push(`${p.name}=${queryValue(p.schema, r)}`); // repeated
  }
  if (r.chance(0.15)) query.push(`${r.pick(['extra', '__proto__', 'a[b]', '%00', ''])}=${queryValue({}, r)}`);
  const url = query.length ? `${path}?${query.join('&')}` : path;

  const request: FuzzRequest = { method: op.method, url, headers };
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
