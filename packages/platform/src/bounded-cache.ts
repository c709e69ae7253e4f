/**
 * A map of at most `maxEntries` values made on demand, the oldest made forgotten first: what
 * a process keeps of things it would otherwise compute again (signing keys, opened secrets,
 * a URI's address check, a form's destinations). For answers that also go stale with time,
 * ExpiringCache.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** `key`'s value, made by `make` and kept when there is none. */
  getOrMake(key: K, make: () => V): V {
    const known = this.entries.get(key);
    if (known !== undefined || this.entries.has(key)) return known as V;
    const made = make();
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, made);
    return made;
  }

  clear(): void {
    this.entries.clear();
  }
}
