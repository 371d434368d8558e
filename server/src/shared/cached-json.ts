import { createHash } from 'node:crypto';

/** A JSON response kept ready to send: the exact bytes of the envelope and their ETag. */
export interface CachedJson {
  body: Buffer;
  etag: string;
}

/**
 * The one place a body's ETag is computed: a strong tag from the SHA-256 of the bytes (base64url,
 * 27 characters = 160 bits, plenty against collisions, shorter on every 304). The snapshot is the
 * exception by contract: its ETag is its version, which is over the canonical data, not the body.
 */
export function cachedJson(body: Buffer): CachedJson {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}
