import { createHash } from 'node:crypto';

/**
 * RFC 8785 canonical JSON (JCS): keys sorted by UTF-16 code units (what Array.prototype.sort does
 * with strings), no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them. The
 * server hashes its snapshot this way (contract §3), so the CLI can say what version a snapshot must
 * have — after an import rewrote media addresses, say — without asking a server. Written here rather
 * than taken from a package: the CLI's runtime is @folio/client and Node only.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`${typeof value} has no JSON form`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}

/** A snapshot's `version`: sha256 of the canonical JSON of everything but `version` and `generatedAt`. */
export function snapshotVersion(snapshot: object): string {
  const { version: _version, generatedAt: _generatedAt, ...rest } = snapshot as Record<string, unknown>;
  return `sha256:${createHash('sha256').update(canonicalJson(rest), 'utf8').digest('hex')}`;
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/**
 * The `?locale=*` document's `version` (contract §17): the JCS of `{ defaultLocale, bakeEnabled,
 * versions, objects }`, where `versions` holds each locale's own snapshot version (that locale's
 * snapshot: its content with `locale`, the objects, `bakeEnabled` and `schema: 1`) and `objects` the
 * version of `{ objectCollections, objectFields, objectTypes }` alone.
 */
export function allLocalesVersion(document: {
  bakeEnabled: boolean;
  defaultLocale: string;
  locales: Record<string, unknown>;
  objectCollections: unknown;
  objectFields: unknown;
  objectTypes: unknown;
}): string {
  const { bakeEnabled, defaultLocale, objectCollections, objectFields, objectTypes } = document;
  const objects = { objectCollections, objectFields, objectTypes };
  const versions: Record<string, string> = {};
  for (const [locale, content] of Object.entries(document.locales)) {
    versions[locale] = snapshotVersion({ bakeEnabled, content, locale, ...objects, schema: 1 });
  }
  return sha256(
    canonicalJson({ defaultLocale, bakeEnabled, versions, objects: sha256(canonicalJson(objects)) }),
  );
}

export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
