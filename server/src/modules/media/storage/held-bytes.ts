import { Readable } from 'node:stream';
import type { ByteRange, StoredMeta, StoredObject } from './storage.js';

/** No file above this size is held: they are few on a page, and streaming them costs little per byte. */
const FILE_MAX = 256 * 1024;

interface Held {
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

    has: (key: string): boolean => entries.has(key),

    /**
     * The held object, when the store still finds the version and size its bytes were read under (it
     * is then the most recently used); otherwise it is forgotten and the store reads the object again.
     */
    current(key: string, version: string, size: number): StoredObject | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.version !== version || entry.bytes.length !== size) {
        forget(key);
        return undefined;
      }
      // A Map keeps insertion order: re-inserting makes it the newest.
      entries.delete(key);
      entries.set(key, entry);
      return inMemory(entry.bytes, entry.meta);
    },

    /**
     * The object just read, to serve; kept when it is small enough and whole (`bytes` as long as the
     * `size` the store found: a file that changed under the read is served as read, not kept).
     */
    hold(key: string, bytes: Buffer, meta: StoredMeta, version: string, size: number): StoredObject {
      if (bytes.length === size && size <= fileMax) {
        forget(key);
        for (const [oldest, old] of entries) {
          if (total + size <= limit) break;
          entries.delete(oldest);
          total -= old.bytes.length;
        }
        entries.set(key, { bytes, meta, version });
        total += size;
      }
      return inMemory(bytes, meta);
    },

    forget,

    forgetPrefix(prefix: string): void {
      for (const key of entries.keys()) if (key.startsWith(prefix)) forget(key);
    },

    /** Bytes held now. */
    size: (): number => total,
  };
}

/** An object whose bytes are in memory: sent as one buffer, or streamed for a caller that asks. */
function inMemory(bytes: Buffer, meta: StoredMeta): StoredObject {
  const slice = (range?: ByteRange) => (range ? bytes.subarray(range.start, range.end + 1) : bytes);
  return {
    size: bytes.length,
    meta,
    bytes: slice,
    stream: (range) => Readable.from([slice(range)]),
    close() {},
  };
}
