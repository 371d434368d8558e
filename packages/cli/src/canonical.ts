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

export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
