import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a caller's x-request-id when it is sane (it ends up in logs), else make one. */
export function requestId(req: IncomingMessage): string {
  return requestIdOf(req.headers['x-request-id']);
}

/** The same rule, given the header's value (the fast read path reads it from the raw headers). */
export function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : newRequestId();
}

const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Where each random byte's two hex digits go in `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`. */
const SPOTS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const random = Buffer.allocUnsafe(16 * 256);
let randomAt = random.length;
const text = Buffer.from('00000000-0000-4000-8000-000000000000', 'latin1');
/** The id newRequestId made last: `text` holds its bytes until the next one. */
let newest = '';

/**
 * The bytes of `id` when it is the id made last here (still in `text`), else undefined. Why: the
 * access line copies these 36 bytes in one go instead of the string a character at a time, which
 * cost a thousand instructions of a 304's fifty-nine thousand (bench/results/instructions.md). The
 * fast read path makes the id and writes its line in the same call, so it always finds them here.
 * The bytes are hex digits and dashes, which JSON leaves alone; they change with the next id, so
 * copy them at once.
 */
export function newestIdBytes(id: string): Uint8Array | undefined {
  return id === newest ? text : undefined;
}

/**
 * A random (version 4) UUID, as crypto.randomUUID() makes, but as a flat string. Why not
 * randomUUID: it joins 20 pieces into a string V8 keeps as a tree, and the first read of its
 * characters (the header write, the access line) flattens it: 180 ns to make plus 100 to flatten,
 * here 140 in all, on every request (bench/results/speed-notes.md, round 11). Random bytes are drawn
 * 256 ids at a time, as Node does for randomUUID.
 */
function newRequestId(): string {
  if (randomAt === random.length) {
    randomFillSync(random);
    randomAt = 0;
  }
  for (let i = 0; i < 16; i++) {
    let byte = random[randomAt + i] as number;
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // RFC 4122 variant
    const at = SPOTS[i] as number;
    text[at] = HEX[byte >> 4] as number;
    text[at + 1] = HEX[byte & 0x0f] as number;
  }
  randomAt += 16;
  newest = text.toString('latin1', 0, 36);
  return newest;
}
