/**
 * Stega marks: an entry id hidden in a string as invisible characters, so the overlay finds the
 * element that shows a value with no attribute or wrapper in the site's markup (the way Sanity's
 * Presentation tool uses @vercel/stega). Our own few lines rather than that package: no new runtime
 * dependency, and ids are short ASCII, so a fixed 4-characters-per-byte code is enough.
 *
 * A mark is INVISIBLE SEPARATOR (U+2063) then each byte of the id as four base-4 digits drawn from
 * ZERO WIDTH SPACE, ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER and WORD JOINER; it is appended to the
 * value, so the visible text and its start are untouched.
 */
const DIGITS = ['\u200b', '\u200c', '\u200d', '\u2060'] as const;
const START = '\u2063';
/** One mark, anywhere in a text (a value may have been concatenated with others). */
const MARK = /\u2063((?:[\u200b-\u200d\u2060]{4})+)/;

export function mark(value: string, id: string): string {
  return value + markCode(id);
}

/** The invisible mark of `id` alone (a session keeps each place's mark, made once). */
export function markCode(id: string): string {
  let code = START;
  for (let i = 0; i < id.length; i++) {
    const byte = id.charCodeAt(i) & 0xff;
    for (let shift = 6; shift >= 0; shift -= 2) code += DIGITS[(byte >> shift) & 3];
  }
  return code;
}

/**
 * What a session's mark names: `entryId:path` (./session.ts), the entry and where the value sits in
 * it; a mark of an older session, the entry id alone.
 */
export function placeOf(payload: string): { entryId: string; path: string | null } {
  const at = payload.indexOf(':');
  return at < 0
    ? { entryId: payload, path: null }
    : { entryId: payload.slice(0, at), path: payload.slice(at + 1) };
}

/** The id of the first mark in `text`, or undefined. */
export function markOf(text: string): string | undefined {
  const found = MARK.exec(text)?.[1];
  if (!found) return undefined;
  let id = '';
  for (let i = 0; i < found.length; i += 4) {
    let byte = 0;
    for (let j = 0; j < 4; j++) byte = (byte << 2) | DIGITS.indexOf(found[i + j] as (typeof DIGITS)[number]);
    id += String.fromCharCode(byte);
  }
  return id;
}

/** `text` without its marks (bridge.ts's stegaClean, kept apart so this chunk shares no code with the main one). */
export function unmark(text: string): string {
  return text.replace(/\u2063[\u200b-\u200d\u2060]*/g, '');
}
