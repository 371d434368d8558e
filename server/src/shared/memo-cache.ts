import { type ChangeBus, FLUSH_ALL } from '../db/dialect/change-bus.js';

/**
 * A bounded in-memory map that is only trusted while the change bus is live. A read that missed
 * the cache takes `epoch()` before querying and passes it to `set`: if anything was invalidated in
 * between, the value may predate that change and is not stored (the next read queries again).
 * Eviction is first-in first-out once `maxBytes` is reached: cheap, and the working set of hot pages
 * is refilled by a single query each.
 */
export class MemoCache<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;
  private generation = 0;

  constructor(
    private readonly bus: ChangeBus,
    private readonly sizeOf: (value: V) => number,
    private readonly maxBytes: number,
  ) {
    bus.subscribe((topic) => {
      if (topic === FLUSH_ALL) this.clear();
    });
  }

  get(key: string): V | undefined {
    return this.bus.live ? this.map.get(key)?.value : undefined;
  }

  epoch(): number {
    return this.generation;
  }

  set(key: string, value: V, epoch: number): void {
    if (epoch !== this.generation || !this.bus.live) return;
    const bytes = this.sizeOf(value);
    if (bytes > this.maxBytes) return;
    this.remove(key);
    while (this.bytes + bytes > this.maxBytes) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
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
