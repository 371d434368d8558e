import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

/**
 * Secrets at rest: webhook signing secrets and deploy-hook secrets (a GitHub token among them) must
 * be readable by the server — an HMAC key or a bearer token cannot be hashed — so they are stored
 * encrypted with AES-256-GCM under CMS_ENCRYPTION_KEY instead of in clear.
 *
 * Stored form: `enc1:<keyId>:<iv>:<ciphertext+tag>` (base64url parts; a fresh 96-bit IV per value;
 * GCM's 128-bit tag makes any alteration fail to open). The key id (16 hex characters of a SHA-256
 * of the key) says which key sealed a value, so a rotation can keep opening old values with
 * CMS_ENCRYPTION_KEY_PREVIOUS, and a server started with the wrong key can say so instead of
 * sending garbage. Rejected: a per-column key version number (the operator would have to number
 * keys by hand), and libsodium (a native dependency for what node:crypto already does).
 */

const PREFIX = 'enc1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const SEALED = /^enc1:([0-9a-f]{16}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

/** A 256-bit key. The bytes stay private: logging or serialising a key shows only its id. */
export class EncryptionKey {
  readonly id: string;
  readonly #bytes: Buffer;

  private constructor(bytes: Buffer) {
    this.#bytes = bytes;
    this.id = createHash('sha256')
      .update('folio-secret-box-key-id:')
      .update(bytes)
      .digest('hex')
      .slice(0, 16);
  }

  /** A key from base64 (or base64url) text of exactly 32 bytes, else null. */
  static parse(text: string): EncryptionKey | null {
    const trimmed = text.trim();
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
    const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === KEY_BYTES ? new EncryptionKey(bytes) : null;
  }

  static generate(): EncryptionKey {
    return new EncryptionKey(randomBytes(KEY_BYTES));
  }

  /** The key as base64, for writing the key file; never log it. */
  exportBase64(): string {
    return this.#bytes.toString('base64');
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#bytes, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}:${this.id}:${iv.toString('base64url')}:${data.toString('base64url')}`;
  }

  /** Opens the iv and ciphertext+tag of a value sealed with this key; throws when they were altered. */
  open(iv: Buffer, data: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.#bytes, iv);
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(data.subarray(0, data.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }

  toJSON(): { id: string } {
    return { id: this.id };
  }

  [inspect.custom](): string {
    return `EncryptionKey(${this.id})`;
  }
}

/** A stored secret this server cannot open: sealed with a key it does not have, or altered. */
export class SecretBoxError extends Error {
  constructor(
    message: string,
    /** The key id the value names, when it names one. */
    readonly keyId: string | null,
  ) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export interface SecretBox {
  /** The id of the key new values are sealed with. */
  readonly keyId: string;
  seal(plain: string): string;
  /**
   * The plaintext of a stored value. A value not in the sealed form is a row written before
   * encryption existed (or by an older instance during an upgrade): it is returned as it is, and the
   * next start seals it. Throws SecretBoxError for a key this box does not hold or an altered value.
   */
  open(stored: string): string;
  /** True for a value in clear or sealed with another key than the current one: the start-up sweep reseals it. */
  needsSealing(stored: string): boolean;
}

export function isSealed(stored: string): boolean {
  return SEALED.test(stored);
}

export function createSecretBox(current: EncryptionKey, previous: EncryptionKey | null = null): SecretBox {
  const keys = new Map([[current.id, current]]);
  if (previous) keys.set(previous.id, previous);
  return {
    keyId: current.id,
    seal: (plain) => current.seal(plain),
    open(stored) {
      const match = SEALED.exec(stored);
      if (!match) return stored;
      const [, keyId, iv, data] = match as unknown as [string, string, string, string];
      const key = keys.get(keyId);
      if (!key) {
        throw new SecretBoxError(
          `a stored secret was encrypted with key id ${keyId}, which is neither CMS_ENCRYPTION_KEY (id ${current.id})${previous ? ` nor CMS_ENCRYPTION_KEY_PREVIOUS (id ${previous.id})` : ' nor a CMS_ENCRYPTION_KEY_PREVIOUS'}`,
          keyId,
        );
      }
      try {
        return key.open(Buffer.from(iv, 'base64url'), Buffer.from(data, 'base64url'));
      } catch {
        throw new SecretBoxError(
          `a stored secret under key id ${keyId} does not decrypt (it was altered)`,
          keyId,
        );
      }
    },
    needsSealing(stored) {
      const match = SEALED.exec(stored);
      return !match || match[1] !== current.id;
    },
  };
}

/** A stored secret found by the start-up sweep; `replace` writes the new value only if the row still holds `secret`. */
export interface StoredSecret {
  secret: string;
  replace(sealed: string): Promise<boolean>;
}

/**
 * The start-up sweep over one table's secrets (those in clear or under another key): each is
 * opened and sealed with the current key. The write is a compare-and-set on the old value, so
 * several instances starting at once, or a rotate-secret racing the sweep, never lose a value; the
 * loser simply finds the row already done. Values no key here can open are returned, not thrown, so
 * the caller can report every table at once.
 */
export async function resealAll(
  rows: StoredSecret[],
  box: SecretBox,
): Promise<{ sealed: number; unreadable: SecretBoxError[] }> {
  let sealed = 0;
  const unreadable: SecretBoxError[] = [];
  for (const row of rows) {
    if (!box.needsSealing(row.secret)) continue;
    let plain: string;
    try {
      plain = box.open(row.secret);
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
      unreadable.push(err);
      continue;
    }
    if (await row.replace(box.seal(plain))) sealed += 1;
  }
  return { sealed, unreadable };
}
