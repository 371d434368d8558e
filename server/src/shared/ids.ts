import { randomBytes } from 'node:crypto';

/**
 * Opaque, prefixed, time-sortable ids (contract §1): `prj_` + 26 Crockford base32 characters laid
 * out like a ULID (48-bit millisecond time, then 80 bits of randomness). Ids made in the same
 * millisecond by this process increase monotonically, so ordering by id is ordering by creation —
 * which lets cursors paginate on the primary key alone.
 */
export type IdPrefix =
  | 'prj'
  | 'usr'
  | 'ent'
  | 'med'
  | 'whk'
  | 'dlv'
  | 'key'
  | 'evt'
  | 'his'
  | 'dpl'
  | 'act'
  | 'sch';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

let lastTime = -1;
const lastRandom = new Uint8Array(10);

/**
 * Randomness for ids, drawn from the system 4 KB at a time: one getrandom(2) per 409 ids instead of
 * one per id. A publish makes three ids; the per-id call was 20 µs of its CPU (issue 13 #3). Ids are
 * unique and unguessable enough to be opaque, never secrets (tokens come from shared/secrets.ts).
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let taken = POOL_BYTES;

function random10(): Uint8Array {
  if (taken + 10 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  taken += 10;
  return pool.subarray(taken - 10, taken);
}

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits -> 16 base32 characters, 5 bits at a time.
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

function incrementRandom(bytes: Uint8Array): void {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const next = (bytes[i] ?? 0) + 1;
    bytes[i] = next & 0xff;
    if (next <= 0xff) return;
  }
}

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (now <= lastTime) {
    incrementRandom(lastRandom);
  } else {
    lastTime = now;
    lastRandom.set(random10());
  }
  return `${prefix}_${encodeTime(lastTime)}${encodeRandom(lastRandom)}`;
}

/**
 * The smallest id `newId(prefix, ms)` can make: every id made before `ms` sorts below it. Lets a
 * retention sweep delete by primary key range instead of needing an index on a time column.
 */
export function idFloor(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(ms)}${'0'.repeat(16)}`;
}

/**
 * An id stamped with a given past time (records imported or back-dated), with fresh randomness and
 * outside the monotonic sequence: newId's ordering guarantee holds only for ids it makes itself.
 */
export function idAt(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(ms)}${encodeRandom(random10())}`;
}
