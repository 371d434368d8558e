import type { ChangeBus } from '../db/dialect/change-bus.js';

/**
 * Topic delivered to subscribers when they must drop everything (invalidations may have been lost).
 * Declared here, beside the cache that obeys it, so shared/ needs no value of the change bus.
 */
export const FLUSH_ALL = '*';

/**
 * A bounded in-memory map that is only trusted while the change bus is live. Reads go through
 * `getOrLoad`: a miss takes the epoch before loading and stores the value only if nothing was
 * invalidated meanwhile, since the value may predate that change (the next read loads again).
 * Eviction is first-in first-out once `maxBytes` is reached: cheap, and the working set of hot pages
 * is refilled by a single query each.
 */
/** Lookups answered from memory and lookups that had to load (or were not cached), since start. */
export interface CacheCounts {
  readonly hits: number;
  readonly misses: number;
}

export class MemoCache<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;
  private generation = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly bus: ChangeBus,
    private readonly sizeOf: (value: V) => number,
    private readonly maxBytes: number,
  ) {
    bus.subscribe((topic) => {
      if (topic === FLUSH_ALL) this.clear();
    });
  }

  /**
   * The cached value, without loading (the revalidation fast path peeks with it). A value found is
   * counted as a hit; nothing found is not a miss, since the caller then goes through getOrLoad.
   */
  get(key: string): V | undefined {
    const value = this.lookup(key);
    if (value !== undefined) this.hits++;
    return value;
  }

  /** For /metrics: two integers, read at scrape time (nothing is allocated per lookup). */
  get counts(): CacheCounts {
    return { hits: this.hits, misses: this.misses };
  }

  private lookup(key: string): V | undefined {
    return this.bus.live ? this.map.get(key)?.value : undefined;
  }

  /**
   * The cached value of `key`, or what `load(key)` returns, stored unless `keep` refuses it (e.g. an
   * unknown key or an empty page: strangers sending made-up keys must not grow memory or evict hot
   * entries). Not async, so a hit costs one resolved promise, as the `async` functions it replaced
   * did; callers pass `load` and `keep` made once, not closures per call, for the same reason.
   */
  getOrLoad(key: string, load: (key: string) => Promise<V>, keep?: (value: V) => boolean): Promise<V> {
    const cached = this.lookup(key);
    if (cached !== undefined) {
      this.hits++;
      return Promise.resolve(cached);
    }
    this.misses++;
    const epoch = this.generation;
    return load(key).then((value) => {
      if (keep === undefined || keep(value)) this.set(key, value, epoch);
      return value;
    });
  }

  /**
   * Loads `key` and stores it as getOrLoad would, without a lookup and without counting a miss: a
   * refill ahead of the reads that will ask for it (what was dropped, rebuilt in the background).
   * False when the value could not be stored because something was invalidated during the load (or
   * the bus is not live): the caller may refill again, from a load that begins after that change.
   */
  refill(key: string, load: (key: string) => Promise<V>, keep?: (value: V) => boolean): Promise<boolean> {
    const epoch = this.generation;
    return load(key).then((value) =>
      keep === undefined || keep(value) ? this.set(key, value, epoch) : true,
    );
  }

  /** Stores `value` unless something was invalidated since `epoch`; whether it did. */
  private set(key: string, value: V, epoch: number): boolean {
    if (epoch !== this.generation || !this.bus.live) return false;
    const bytes = this.sizeOf(value);
    if (bytes > this.maxBytes) return true; // never kept: nothing to try again
    this.remove(key);
    while (this.bytes + bytes > this.maxBytes) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
    return true;
  }

  delete(key: string): void {
    this.generation++;
    this.remove(key);
  }

  deleteWhere(match: (key: string, value: V) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.map) if (match(key, entry.value)) this.remove(key);
  }

  clear(): void {
    this.generation++;
    this.map.clear();
    this.bytes = 0;
  }

  private remove(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    this.bytes -= entry.bytes;
  }
}
