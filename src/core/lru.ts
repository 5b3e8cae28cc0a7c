/**
 * A least-recently-used map bounded by bytes ({@link ByteLru}), the in-process tier of the response
 * cache.
 * @module
 */

/**
 * A least-recently-used map bounded by the total size of its entries (in bytes, as the caller
 * measures them). Used as the L1 tier of the response cache. Pure: expiry is the caller's
 * business (it stores deadlines in the values).
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private bytes = 0;

  /** @param capacity Maximum total size in bytes; 0 disables the cache. */
  constructor(readonly capacity: number) {}

  /** Total size of the stored entries. */
  get size(): number {
    return this.bytes;
  }

  /** Number of stored entries. */
  get count(): number {
    return this.entries.size;
  }

  /** The value for `key`, marking it most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value`; entries larger than the whole capacity are not stored. Evicts the oldest. */
  set(key: string, value: V, size: number): void {
    this.delete(key);
    if (size > this.capacity) return;
    this.entries.set(key, { value, size });
    this.bytes += size;
    while (this.bytes > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  /** Removes `key`. */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}
