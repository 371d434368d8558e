import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecretBox, EncryptionKey, type SecretBox } from './secret-box.js';

/** The key file used when CMS_ENCRYPTION_KEY is not set (one instance, or instances sharing a disk). */
export const KEY_FILE_NAME = 'encryption.key';

/**
 * The encryption keys of this process, resolved at start (never at import): CMS_ENCRYPTION_KEY, else
 * the key file in CMS_DATA_DIR, created on first start with mode 0600. Synchronous: it runs once,
 * before anything is served. `keyFileCreated` is the path when this call created the file.
 */
/** The parts of the configuration that name the keys (shared/ does not import config.ts). */
export interface KeySettings {
  encryptionKey: EncryptionKey | null;
  encryptionKeyPrevious: EncryptionKey | null;
  dataDir: string;
}

export function openSecretBox(config: KeySettings): {
  box: SecretBox;
  keyFileCreated: string | null;
} {
  if (config.encryptionKey) {
    return { box: createSecretBox(config.encryptionKey, config.encryptionKeyPrevious), keyFileCreated: null };
  }
  const { key, created } = loadOrCreateKeyFile(config.dataDir);
  return {
    box: createSecretBox(key, config.encryptionKeyPrevious),
    keyFileCreated: created ? keyFilePath(config.dataDir) : null,
  };
}

export const keyFilePath = (dataDir: string) => join(dataDir, KEY_FILE_NAME);

/**
 * Reads the key file, or creates it. Creation is safe with several processes starting at once on
 * one data directory: the key is written to a private temporary file and hard-linked into place,
 * which fails if another process got there first — then its key is read instead. Never a half-written file.
 */
export function loadOrCreateKeyFile(dataDir: string): { key: EncryptionKey; created: boolean } {
  const path = keyFilePath(dataDir);
  const existing = readKeyFile(path);
  if (existing) return { key: existing, created: false };
  mkdirSync(dataDir, { recursive: true });
  const key = EncryptionKey.generate();
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${key.exportBase64()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, path);
    return { key, created: true };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') {
      // A file system without hard links: an exclusive create still lets only one process win.
      return createExclusively(path, key);
    }
    if (code !== 'EEXIST') throw err;
    const winner = readKeyFile(path);
    if (!winner) throw new Error(`${path} appeared while starting but holds no key`);
    return { key: winner, created: false };
  } finally {
    unlinkSync(temp);
  }
}

function createExclusively(path: string, key: EncryptionKey): { key: EncryptionKey; created: boolean } {
  try {
    writeFileSync(path, `${key.exportBase64()}\n`, { mode: 0o600, flag: 'wx' });
    return { key, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const winner = readKeyFile(path);
    if (!winner) throw new Error(`${path} appeared while starting but holds no key`);
    return { key: winner, created: false };
  }
}

function readKeyFile(path: string): EncryptionKey | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const key = EncryptionKey.parse(text);
  if (!key) throw new Error(`${path} must hold a base64 32-byte key (as CMS_ENCRYPTION_KEY would)`);
  return key;
}
