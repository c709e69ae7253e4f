interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A bounded map whose entries expire `ttlMs` after they were set (performance.now, so a
 * clock step changes nothing), the oldest set forgotten first when `maxEntries` are held.
 * The gateway's token cache and door, and push's directory lookup, keep their answers here.
 */
export class ExpiringCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(private readonly options: { ttlMs: number; maxEntries: number }) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > performance.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** How long `key`'s entry has left, in ms (0 when there is none or it has expired). */
  remainingMs(key: K): number {
    const entry = this.entries.get(key);
    return entry ? Math.max(0, entry.expiresAt - performance.now()) : 0;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt: performance.now() + this.options.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Forgets every entry whose value `matches`. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }
}
