/**
 * A synchronous memo of values derived from their key (a parsed declaration, a compiled pattern, a
 * check's result): bounded by entries and by bytes, since a count alone lets a few large keys hold
 * a great deal (500 parsed declarations of 64 KB each, with their JSON as the key, were ~100 MB;
 * issue 42). The bytes are the caller's estimate of key and value together. Eviction is first-in
 * first-out, as MemoCache's: a memo's hot entries are refilled by one computation each. A value
 * larger than a quarter of the bound is not kept (it would evict most of the memo for one entry).
 * Rejected: dropping everything at once when full (what the memos did before), which made a burst of
 * distinct keys cost every hot entry too.
 */
export class BoundedMemo<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private held = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  /** Keeps `value` under `key` unless it is too large to; evicts the oldest entries to make room. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes / 4) return;
    while (this.map.size >= this.maxEntries || this.held + bytes > this.maxBytes) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    this.map.set(key, { value, bytes });
    this.held += bytes;
  }

  delete(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    this.held -= entry.bytes;
  }

  /** Entries and bytes held (for tests and the memory bench). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.map.size, bytes: this.held };
  }
}
