import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, extname, join } from 'node:path';
import { Script } from 'node:vm';
import { setProcessFlags } from '../shared/idle-memory.js';
import { setCompileCacheStatus as setStatus } from './compile-cache-status.js';

export interface RunBundleOptions {
  /** The cache directory, or `off`. Default: CMS_COMPILE_CACHE, else `compile-cache/` beside the bundle. */
  cache?: string;
  /** How long after the start the cache is written when it was missing or rejected. */
  saveAfterMs?: number;
}

/**
 * Two seconds: after the start and its first requests have compiled what they run (so the cache holds
 * it), and long before the idle trim could set a flag (setProcessFlags sets them all first anyway).
 */
const SAVE_AFTER_MS = 2000;

/**
 * Runs one of the process bundles (dist/server.cjs, dist/worker.cjs; scripts/bundle.ts) with V8's
 * code cache: the compiled code of the previous start of the same bundle, node and flags.
 *
 * Why: compiling was most of what a start did. In a CPU profile of a start on PostgreSQL, V8 spent
 * 50 ms parsing the bundle, and more compiling each function on its first call, of 230 ms to the
 * first page read. With the cache, spawn to the first page read took 179 ms against 227 (SQLite 171
 * against 224; a bare Fastify 169): bench/results/speed-notes.md, round 15. Node 22 offers this for
 * ES modules (`module.enableCompileCache`); Node 20 does not, so the bundles are CommonJS, compiled
 * here through `vm.Script`, the one API that takes and makes cached data on every supported node.
 *
 * Safe by construction:
 * - The cache file is named by a hash of the bundle's bytes, node's version, the platform and node's
 *   flags (V8 checks only the source's length and its own flags), so another build never gets it.
 * - V8 validates the file and refuses what it cannot use; the bundle is then compiled from source,
 *   and the file replaced.
 * - It is written to a temporary name and renamed, so a crash never leaves half a file.
 * - A directory that cannot be written costs the cache, with one warning, never the start.
 * - The cache is code: keep it where only the bundle's owner can write (the default is beside the
 *   bundle, which `npm run build` fills).
 */
export function runBundle(bundle: string, options: RunBundleOptions = {}): void {
  setProcessFlags();
  const requireFrom = createRequire(bundle);
  // An empty setting is no setting (else the cache would land in whatever directory node runs in).
  const cacheDir = options.cache || process.env.CMS_COMPILE_CACHE || join(dirname(bundle), 'compile-cache');
  if (cacheDir === 'off' || process.sourceMapsEnabled) {
    setStatus('off');
    requireFrom(bundle);
    return;
  }
  const bytes = readFileSync(bundle);
  const file = join(cacheDir, `${basename(bundle, extname(bundle))}-${keyOf(bytes)}.v8`);
  const cachedData = readIfThere(file);
  // Wrapped as node's CommonJS loader wraps a module, and run below with what it passes one.
  const script = new Script(Module.wrap(bytes.toString('utf8')), { filename: bundle, cachedData });
  const status = !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  setStatus(status);
  if (status !== 'used') {
    setTimeout(() => save(script, cacheDir, file), options.saveAfterMs ?? SAVE_AFTER_MS).unref();
  }
  const module = { exports: {}, filename: bundle, id: bundle };
  script.runInThisContext()(module.exports, requireFrom, module, bundle, dirname(bundle));
}

/** The bundle's bytes and everything V8's code depends on besides them: node, platform, flags. */
function keyOf(bytes: Buffer): string {
  return createHash('sha256')
    .update(bytes)
    .update(JSON.stringify([process.version, process.arch, process.execArgv, process.env.NODE_OPTIONS ?? '']))
    .digest('hex')
    .slice(0, 32);
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function save(script: Script, dir: string, file: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, file);
  } catch (err) {
    removeIfThere(temporary);
    process.emitWarning(
      `Folio could not write its compile cache to ${dir} (${(err as Error).message}): each start compiles from source. Set CMS_COMPILE_CACHE to a directory it can write, or to off.`,
    );
  }
}

function removeIfThere(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // its directory is not there either
  }
}
