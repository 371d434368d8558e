import { close, createReadStream, fstat, open, readFile as readFd } from 'node:fs';
import { access, constants, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { createHeldBytes } from './held-bytes.js';
import { createStaging } from './staging.js';
import { assertKey, type MediaStorage, type StoredMeta, type StoredObject } from './storage.js';

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const readWhole = promisify(readFd) as (fd: number) => Promise<Buffer>;

/** Metadata of this many objects is kept in memory, so a served file costs one open and one fstat. */
const META_CACHE_SIZE = 10_000;

/**
 * The local-directory store under `<dataDir>/media`: `tmp/` for staging, then one file per key and
 * a `<file>.meta.json` sidecar with its metadata (what S3 keeps as object metadata). The sidecar
 * is written before the data file is renamed into place, and deleted after it, so a data file that
 * can be opened always has its metadata. Staging lives under the same directory so `rename` is
 * atomic (same file system).
 *
 * The metadata cache cannot serve a deleted file: every `open` opens the data file first, and a
 * missing file is a miss whatever the cache holds (true too of instances sharing one directory).
 *
 * Small files are also kept in memory (`heldBytes` bytes in all, see held-bytes.ts) and served
 * from there: a served file then costs one stat(2) and allocates no read buffers. Streaming each
 * request's 64 KB read buffers is what kept V8 marking again and again after an upload burst (issue
 * 13, round 9 of bench/results/speed-notes.md). The stat is what keeps a deleted file from being
 * served, and its inode and mtime must match the ones the bytes were read under.
 */
export function createLocalStorage(dataDir: string, heldBytes = 0): MediaStorage {
  const root = resolve(dataDir, 'media');
  const staging = createStaging(resolve(root, 'tmp'));
  const metaCache = new Map<string, StoredMeta>();
  const held = createHeldBytes(heldBytes);

  const pathOf = (key: string): string => {
    assertKey(key);
    const path = resolve(root, key);
    if (!path.startsWith(root + sep) || path.startsWith(staging.dir + sep)) {
      throw new Error(`Media key outside the store: ${key}`);
    }
    return path;
  };

  function remember(key: string, meta: StoredMeta): void {
    if (metaCache.size >= META_CACHE_SIZE) {
      // Map keeps insertion order: drop the oldest entry.
      const oldest = metaCache.keys().next().value;
      if (oldest !== undefined) metaCache.delete(oldest);
    }
    metaCache.set(key, meta);
  }

  async function readMeta(key: string, path: string): Promise<StoredMeta | null> {
    const cached = metaCache.get(key);
    if (cached) return cached;
    try {
      const meta = JSON.parse(await readFile(`${path}.meta.json`, 'utf8')) as StoredMeta;
      remember(key, meta);
      return meta;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  return {
    init: () => staging.init(),

    stagingPath: () => staging.path(),

    async put(key, stagedFile, meta) {
      const path = pathOf(key);
      try {
        await mkdir(dirname(path), { recursive: true });
        const metaStaged = `${stagedFile}.meta`;
        await writeFile(metaStaged, JSON.stringify(meta));
        await rename(metaStaged, `${path}.meta.json`);
        await rename(stagedFile, path);
        remember(key, meta);
      } catch (err) {
        await rm(stagedFile, { force: true });
        await rm(`${stagedFile}.meta`, { force: true });
        throw err;
      }
    },

    async open(key): Promise<StoredObject | null> {
      const path = pathOf(key);
      if (held.has(key)) {
        const info = await stat(path).catch((err) => {
          if (isMissing(err)) return null;
          throw err;
        });
        if (!info) {
          held.forget(key);
          metaCache.delete(key);
          return null;
        }
        const object = held.current(key, fileVersion(info), info.size);
        if (object) return object;
      }
      let fd: number;
      try {
        fd = await openFd(path, 'r');
      } catch (err) {
        if (isMissing(err)) {
          metaCache.delete(key);
          return null;
        }
        throw err;
      }
      try {
        const [info, meta] = await Promise.all([fstatFd(fd), readMeta(key, path)]);
        if (!meta || !info.isFile()) {
          close(fd, () => {});
          return null;
        }
        if (held.takes(info.size)) {
          const bytes = await readWhole(fd).finally(() => close(fd, () => {}));
          return held.hold(key, bytes, meta, fileVersion(info), info.size);
        }
        let used = false;
        return {
          size: info.size,
          meta,
          stream(range) {
            used = true;
            return createReadStream(path, { fd, autoClose: true, ...(range ?? {}) });
          },
          close() {
            if (!used) {
              used = true;
              close(fd, () => {});
            }
          },
        };
      } catch (err) {
        close(fd, () => {});
        throw err;
      }
    },

    async exists(key) {
      return stat(pathOf(key)).then(
        (info) => info.isFile(),
        (err) => {
          if (isMissing(err)) return false;
          throw err;
        },
      );
    },

    async delete(key) {
      const path = pathOf(key);
      metaCache.delete(key);
      held.forget(key);
      // Data first: once it is gone nothing serves the object, whatever happens to the sidecar.
      await rm(path, { force: true });
      await rm(`${path}.meta.json`, { force: true });
    },

    async countPrefix(prefix) {
      if (!prefix.endsWith('/')) throw new Error(`Media key prefix must end with "/": ${prefix}`);
      const names = await readdir(pathOf(prefix.slice(0, -1))).catch((err) => {
        if (isMissing(err)) return [] as string[];
        throw err;
      });
      return names.filter((name) => !name.endsWith('.meta.json')).length;
    },

    async deletePrefix(prefix) {
      if (!prefix.endsWith('/')) throw new Error(`Media key prefix must end with "/": ${prefix}`);
      const dir = pathOf(prefix.slice(0, -1));
      for (const key of metaCache.keys()) if (key.startsWith(prefix)) metaCache.delete(key);
      held.forgetPrefix(prefix);
      await rm(dir, { recursive: true, force: true });
    },

    discard: (stagedFile) => staging.discard(stagedFile),

    // One access(2) on the staging directory: it sits inside the store, so a removed or read-only
    // store (a lost mount, a full remount read-only) fails it, and an upload would fail the same way.
    async check() {
      await access(staging.dir, constants.R_OK | constants.W_OK);
    },

    async close() {},
  };
}

/** A file's identity: a rename into place (every put) gives a new inode. */
const fileVersion = (info: { ino: number; mtimeMs: number }): string => `${info.ino}:${info.mtimeMs}`;

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
