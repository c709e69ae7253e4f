/**
 * A token bucket kept as GCRA (the generic cell rate algorithm): one number per key, the
 * theoretical arrival time, when the bucket is full again. Times are in microseconds.
 */

/** A bucket of `burst` tokens, refilled at `perSecond` tokens a second. */
export interface BucketSetting {
  perSecond: number;
  burst: number;
}

/** What one take decided. */
export interface TakeVerdict {
  allowed: boolean;
  /** Whole tokens left in the bucket after this take. */
  remaining: number;
  /** Allowed: µs until the bucket is full again. Refused: µs until one token is free. */
  waitMicros: number;
}

/** Where a bucket's takes are decided: in this process, or shared in Redis. */
export interface TokenBucketStore {
  take(key: string): Promise<TakeVerdict>;
}

/**
 * Slack for floating-point rounding (a thousandth of a token): times are sums of non-integer
 * intervals on a clock of some 10^15 µs, so a refill can land a hair short of the whole
 * token the rate has earned. The Redis script uses the same.
 */
export const ROUNDING_SLACK_TOKENS = 0.001;

/** The µs one token takes to come back. */
export function refillMicros(setting: BucketSetting): number {
  return 1_000_000 / setting.perSecond;
}

/** A take at `now` from a bucket whose theoretical arrival time is `tat` (undefined: full); the new `tat` when allowed. */
export function takeAt(tat: number | undefined, now: number, setting: BucketSetting): TakeVerdict & { tat: number } {
  const interval = refillMicros(setting);
  const full = setting.burst * interval;
  const base = Math.max(tat ?? now, now);
  const held = (full - (base - now)) / interval + ROUNDING_SLACK_TOKENS;
  if (held < 1) return { allowed: false, remaining: 0, waitMicros: base + interval - full - now, tat: base };
  const next = base + interval;
  return { allowed: true, remaining: Math.floor(held - 1), waitMicros: next - now, tat: next };
}

/** Keys a process's bucket keeps at most: past them the least recently used goes (its bucket starts full again). */
export const MEMORY_BUCKET_MAX_KEYS = 100_000;

/** A monotonic clock in µs. */
export type MicrosClock = () => number;

const monotonicMicros: MicrosClock = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The bucket in this process (embedded mode, a gateway without REDIS_URL, and the fallback
 * of a Redis away). Bounded: a key whose bucket is full again is the same as no key, so such
 * entries are swept every `sweepMicros` (10 s); past `maxKeys` the least recently used key
 * goes, so a flood of keys (addresses, forged devices) cannot grow the map without end.
 */
export class MemoryTokenBucket implements TokenBucketStore {
  /** key → theoretical arrival time; in the order of their last take (a Map keeps insertion order). */
  private readonly tats = new Map<string, number>();
  private lastSweep: number;

  constructor(
    private readonly setting: BucketSetting,
    private readonly options: { maxKeys?: number; sweepMicros?: number; now?: MicrosClock } = {},
  ) {
    this.lastSweep = this.now();
  }

  get size(): number {
    return this.tats.size;
  }

  take(key: string): Promise<TakeVerdict> {
    return Promise.resolve(this.takeNow(key));
  }

  takeNow(key: string): TakeVerdict {
    const now = this.now();
    const { tat, ...verdict } = takeAt(this.tats.get(key), now, this.setting);
    if (verdict.allowed) {
      this.tats.delete(key);
      this.makeRoom(now);
      this.tats.set(key, tat);
    }
    return verdict;
  }

  private makeRoom(now: number): void {
    const maxKeys = this.options.maxKeys ?? MEMORY_BUCKET_MAX_KEYS;
    const sinceSweep = now - this.lastSweep;
    // At the cap, a sweep at most once a second: a flood of new keys then costs O(1) a take.
    if (sinceSweep >= (this.options.sweepMicros ?? 10_000_000) || (this.tats.size >= maxKeys && sinceSweep >= 1_000_000)) this.sweep(now);
    for (const key of this.tats.keys()) {
      if (this.tats.size < maxKeys) break;
      this.tats.delete(key);
    }
  }

  /** Drops the keys whose bucket is full again: the same as no entry. */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
  }

  private now(): number {
    return (this.options.now ?? monotonicMicros)();
  }
}
