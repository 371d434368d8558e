import type { Rng } from './random.js';

/**
 * The fuzz corpus: odd strings, values, raw bodies, content types, headers and multipart forms,
 * each aimed at a way input has broken (or could break) a handler. Add to it when a bug is found.
 */

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

/** Keys that name members of Object.prototype: as field or object keys they must stay data (§23). */
export const PROTO_KEYS: readonly string[] = [
  'constructor',
  'toString',
  'valueOf',
  '__proto__',
  'hasOwnProperty',
];

/** Integers a lenient parser takes (Number(), a schema's coercion): §23 allows only plain digits. */
export const ODD_INTEGERS: readonly string[] = ['03', '1e0', '0x1', '%201', '+1', '-0', '1.0', '00'];

/**
 * Deep nesting stands in the value tree as a marker string and is spliced into the JSON text at
 * the end (serialize): 5,000 levels built as objects would overflow JSON.stringify's own stack.
 */
const deep = (depth: number, kind: 'array' | 'object') => `\u0001deep:${kind}:${depth}\u0001`;

export function serialize(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    /"\\u0001deep:(array|object):(\d+)\\u0001"/g,
    (_, kind: string, n: string) =>
      kind === 'array'
        ? `${'['.repeat(Number(n))}1${']'.repeat(Number(n))}`
        : `${'{"a":'.repeat(Number(n))}1${'}'.repeat(Number(n))}`,
  );
}

/** Wide values: many keys or items, each small (what a byte limit alone lets through in number). */
function wide(r: Rng): unknown {
  switch (r.int(4)) {
    case 0:
      return Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
    case 1:
      return Array.from({ length: 100_000 }, () => 0);
    case 2:
      return Array.from({ length: 5_000 }, (_, i) => ({ _key: `k${i}`, title: 'x' }));
    default:
      // Prototype-named and locale-named keys, as an object value or a fields object would hold them.
      return Object.fromEntries(
        [...PROTO_KEYS.filter((k) => k !== '__proto__'), 'en', 'fr', 'fr-CA', 'default'].map((k) => [
          k,
          r.pick(['x', 1, null, { en: 'x' }]),
        ]),
      );
  }
}

export function oddValue(r: Rng): unknown {
  switch (r.int(9)) {
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
    case 7:
      return wide(r);
    default:
      return { __proto__x: 1, constructor: { prototype: { polluted: true } } };
  }
}

export const RAW_BODIES: readonly (string | Buffer)[] = [
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
  '{"fields":{"constructor":"a","toString":"b","valueOf":"c","hasOwnProperty":"d"}}',
  '{"fields":{"__proto__":"a"}}',
  '['.repeat(10_000),
  '{"a":'.repeat(3_000),
  '1e99999',
  '"\\ud800"',
  '{"name":"\\u0000"}',
  '{"email":"\\udc00@x.co","password":"\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"}',
  Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
  Buffer.from('{"name":"\xff\xfe"}', 'latin1'),
];

export const CONTENT_TYPES: readonly string[] = [
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
export function multipartBody(r: Rng, png: Buffer): { payload: Buffer; contentType: string } {
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

export const ODD_PATH_SEGMENTS: readonly string[] = [
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

export const ODD_HEADERS: readonly [string, string][] = [
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
export const JUNK_CREDENTIALS: readonly [string, string][] = [
  ['authorization', 'Basic Zm9vOmJhcg=='],
  ['authorization', 'Bearer '],
  ['authorization', 'Bearer nope'],
  ['authorization', `Bearer cms_sk_${'x'.repeat(100)}`],
  ['authorization', `Bearer ${'x'.repeat(2_000)}`],
  ['x-cms-key', 'cms_pk_nope'],
  ['x-cms-key', ''],
];
