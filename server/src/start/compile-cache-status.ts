/**
 * How a start got its compiled code: `used` (from the cache), `missing` (no cache for this build,
 * node and flags: compiled from source, cache written two seconds later), `rejected` (V8 refused the
 * cached file: compiled from source, cache written again), `off` (CMS_COMPILE_CACHE=off, or node's
 * --enable-source-maps, which maps stack traces only for code node loads itself).
 */
export type CompileCacheStatus = 'used' | 'missing' | 'rejected' | 'off';

/** Where the loader leaves the status for the bundle's start-up log line: the two are separate copies of this module. */
const STATUS = Symbol.for('folio.compileCache');

/** The status of this process's start, or undefined when it was not started by runBundle (tsx, tests). */
export function compileCacheStatus(): CompileCacheStatus | undefined {
  return (globalThis as Record<symbol, CompileCacheStatus | undefined>)[STATUS];
}

export function setCompileCacheStatus(status: CompileCacheStatus): void {
  (globalThis as Record<symbol, CompileCacheStatus>)[STATUS] = status;
}
