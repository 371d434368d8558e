import { Readable } from 'node:stream';
import type { ByteRange, StoredMeta, StoredObject } from './storage.js';

/** No file above this size is held: they are few on a page, and streaming them costs little per byte. */
const FILE_MAX = 256 * 1024;

export interface Held {
  bytes: Buffer;
  meta: StoredMeta;
  /**
   * Which stored object the bytes were read from, in the store's terms (a file's inode and mtime, an
   * S3 object's ETag): another version is another object.
   */
  version: string;
}

/**
 * The bytes of small media files kept in memory, at most `limit` bytes in all, least recently
 * served first out. A file is held only when it is at most a quarter of the limit (and 256 KiB),
 * so one file never empties the rest. A limit of 0 holds nothing.
 *
 * It only remembers: whether a held file may still be served (it exists, it is the same object) is
 * the store's decision, made on every request (a stat(2) of the file, a HEAD of the S3 object).
 */
export function createHeldBytes(limit: number) {
  const entries = new Map<string, Held>();
  const fileMax = Math.min(FILE_MAX, Math.floor(limit / 4));
  let total = 0;

  function forget(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.bytes.length;
  }

  return {
    /** Whether a file of `size` bytes would be held once read. */
    takes: (size: number): boolean => size <= fileMax,

    /** The held entry, now the most recently used. */
    get(key: string): Held | undefined {
      const entry = entries.get(key);
      if (entry) {
        // A Map keeps insertion order: re-inserting makes it the newest.
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },

    matches: (entry: Held, version: string, size: number): boolean =>
      entry.version === version && entry.bytes.length === size,

    keep(key: string, entry: Held): void {
      if (!(entry.bytes.length <= fileMax)) return;
      forget(key);
      for (const [oldest, old] of entries) {
        if (total + entry.bytes.length <= limit) break;
        entries.delete(oldest);
        total -= old.bytes.length;
      }
      entries.set(key, entry);
      total += entry.bytes.length;
    },

    forget,

    forgetPrefix(prefix: string): void {
      for (const key of entries.keys()) if (key.startsWith(prefix)) forget(key);
    },

    /** Bytes held now (for tests and metrics). */
    size: (): number => total,
  };
}

/** An object whose bytes are in memory: sent as one buffer, or streamed for a caller that asks. */
export function inMemory(bytes: Buffer, meta: StoredMeta): StoredObject {
  const slice = (range?: ByteRange) => (range ? bytes.subarray(range.start, range.end + 1) : bytes);
  return {
    size: bytes.length,
    meta,
    bytes: slice,
    stream: (range) => Readable.from([slice(range)]),
    close() {},
  };
}
