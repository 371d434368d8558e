import { createHash, randomBytes } from 'node:crypto';

/** A random token of `bytes` bytes (default 32 = 256 bits), base64url, with an optional prefix. */
export function randomToken(prefix = '', bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/**
 * Tokens and keys carry 256 random bits, so a single fast SHA-256 is enough to store them: there is
 * nothing to brute-force, and a lookup by hash stays one indexed read per request (a slow password
 * hash here would cost every request tens of milliseconds).
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
