import type { ByteRange } from './storage/storage.js';

/**
 * Small, pure pieces of HTTP file serving (RFC 9110 ranges and validators, RFC 6266/8187 file
 * names), kept apart from the route so they can be tested directly.
 */

/** Drops C0 control characters and DEL (they have no place in a file name or a header). */
export function withoutControls(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f) out += char;
  }
  return out;
}

/**
 * `inline; filename="<ascii fallback>"; filename*=UTF-8''<percent-encoded>`. The fallback keeps
 * printable ASCII except `"` and `\` (which would need quoting rules some clients get wrong); the
 * extended form carries the exact name. Control characters never reach a header.
 */
export function contentDisposition(filename: string): string {
  const clean = withoutControls(filename);
  const fallback = clean.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'file';
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Interprets a Range header against a representation of `size` bytes:
 * - `undefined`: send the whole thing (no header, another unit, several ranges, or garbage —
 *   RFC 9110 lets a server ignore a Range it does not support);
 * - `'unsatisfiable'`: answer 416;
 * - a range: answer 206 with it.
 * Only one range is served; multipart/byteranges is not worth its complexity for images.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
