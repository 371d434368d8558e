import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

/** A staging file untouched this long belongs to no live upload (uploads write continuously). */
const STALE_STAGING_MS = 15 * 60 * 1000;

/**
 * The local directory where uploads and new variants are written before they are put in the store,
 * whichever store that is: the upload is hashed, sniffed and measured on disk, never in memory.
 */
export interface Staging {
  readonly dir: string;
  /** Creates the directory and removes files a crash left behind. */
  init(): Promise<void>;
  /** A new, unused file path in the directory. */
  path(): string;
  /** Removes a staging file (missing is fine); refuses any path outside the directory. */
  discard(file: string): Promise<void>;
}

export function createStaging(dir: string): Staging {
  const root = resolve(dir);
  return {
    dir: root,

    async init() {
      await mkdir(root, { recursive: true });
      // Only stale files: another process may share this directory and be uploading right now
      // (its files are being written, so they are fresh).
      const now = Date.now();
      for (const name of await readdir(root)) {
        const path = join(root, name);
        const info = await stat(path).catch(() => null);
        if (info && now - info.mtimeMs > STALE_STAGING_MS) await rm(path, { force: true, recursive: true });
      }
    },

    path: () => join(root, `${randomUUID()}.part`),

    async discard(file) {
      const path = resolve(file);
      if (!path.startsWith(root + sep)) throw new Error(`Not a staging file: ${file}`);
      await rm(path, { force: true });
    },
  };
}
