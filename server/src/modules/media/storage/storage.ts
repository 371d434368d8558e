import type { Readable } from 'node:stream';

/**
 * Where media bytes live: a local directory (local.ts) or an S3-compatible bucket (s3.ts), chosen by
 * create.ts. Routes and the service speak only this interface: `put` is an upload of the staged file
 * (plus object metadata), `open` a HEAD, `stream` a ranged GET, `deletePrefix` a list+delete.
 *
 * Keys are ours, never a client's: `originals/<projectId>/<mediaId>.<ext>` and
 * `variants/<projectId>/<mediaId>/<spec>.<ext>`. Implementations refuse anything else.
 */
export interface StoredMeta {
  contentType: string;
  /** Hex SHA-256 of the bytes: the strong ETag. */
  sha256: string;
  /** The original client file name, for Content-Disposition. */
  filename: string;
}

/** Inclusive byte range, as in `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/** An object found in the store; call `stream` once, or `close` when not sending the body. */
export interface StoredObject {
  size: number;
  meta: StoredMeta;
  /**
   * Present when the store holds the object's bytes in memory: the bytes (of `range`), to send as
   * one buffer. The serve route prefers it to `stream`; there is nothing to close.
   */
  bytes?(range?: ByteRange): Buffer;
  stream(range?: ByteRange): Readable;
  close(): void;
}

export interface MediaStorage {
  /** Prepares the store (directories) and removes staging files left by a crash. */
  init(): Promise<void>;
  /** A new staging file path on local disk for an upload or a variant being made. */
  stagingPath(): string;
  /**
   * Moves a finished staging file under `key`, atomically: readers see the whole object or none.
   * The staging file is gone afterwards, whether `put` succeeds or not.
   */
  put(key: string, stagedFile: string, meta: StoredMeta): Promise<void>;
  /** The object under `key`, or null when there is none (never uploaded, or deleted). */
  open(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removes one object; an already-missing object is fine. */
  delete(key: string): Promise<void>;
  /** How many objects have keys starting with `prefix` (which must end with "/"). */
  countPrefix(prefix: string): Promise<number>;
  /** Removes every object whose key starts with `prefix` (which must end with "/"). */
  deletePrefix(prefix: string): Promise<void>;
  /** Removes a staging file that will not be put (failed upload); missing is fine. */
  discard(stagedFile: string): Promise<void>;
  /** Releases connections (the app's onClose). */
  close(): Promise<void>;
  /**
   * Rejects when the store cannot take uploads or serve files right now (GET /health/ready reports
   * it). Called on every readiness poll, so it must be cheap: the local store checks that its
   * directory is there and writable; a remote store may answer from a recent success.
   */
  check(): Promise<void>;
}

const KEY = /^(originals|variants)\/[A-Za-z0-9_-]+\/(?:[A-Za-z0-9_-]+\/)?[A-Za-z0-9_.-]+$/;

/** Keys are built by the service from ids; this guard keeps a bug from ever reaching `..`. */
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..' || part === '')) {
    throw new Error(`Invalid media storage key: ${key}`);
  }
}
