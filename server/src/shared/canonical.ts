import canonicalize from 'canonicalize';

/**
 * RFC 8785 canonical JSON (keys sorted by UTF-16 code units, no whitespace, ECMAScript numbers).
 * Field maps are stored in this form, so equal maps are equal strings on both dialects.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** Sorts by UTF-16 code units, as RFC 8785 does for keys: the same order on SQLite and PostgreSQL. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
