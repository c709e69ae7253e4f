import type { BucketSetting } from './token-bucket';

/** A lease is what the bucket refills in this long (ms), at most a tenth of it and LEASE_MAX_TOKENS. */
export const LEASE_REFILL_MS = 100;

/** The most tokens one take from a shared bucket reserves for this replica. */
export const LEASE_MAX_TOKENS = 100;

/**
 * How long a replica may spend tokens it took ahead (ms); past it the rest is dropped. Tokens
 * spent in a window but taken before it are those held when it began: at most one lease a
 * replica, whatever this is. It bounds the waste instead: an organization under its rate
 * gives up at most a lease a second it did not use.
 */
export const LEASE_EXPIRY_MS = 1000;

/**
 * How many tokens a replica takes from the shared bucket at once: what the bucket refills in
 * LEASE_REFILL_MS, at most a tenth of its size and LEASE_MAX_TOKENS. Small buckets (a
 * device's, the tests') get 1: each take asks the shared bucket, exactly as before leases.
 */
export function leaseSize(setting: BucketSetting): number {
  return Math.max(1, Math.min(LEASE_MAX_TOKENS, Math.floor((setting.perSecond * LEASE_REFILL_MS) / 1000), Math.floor(setting.burst / 10)));
}

/** Tokens this replica took ahead for one key. */
interface Lease {
  tokens: number;
  /** Whole tokens the shared bucket had left when the lease was taken. */
  bucketRemaining: number;
  /** Monotonic ms: when the shared bucket is full again, as it said at the lease. */
  fullAtMs: number;
  /** Monotonic ms: past it the lease's tokens are dropped. */
  expiresAtMs: number;
}

/** What spending a leased token tells the caller. */
export interface LeasedTake {
  /** The tokens the bucket had left, counting those this replica still holds. */
  remaining: number;
  /** µs until the shared bucket is full again. */
  waitMicros: number;
}

/**
 * What this replica holds and knows of a shared bucket, per key: the tokens it took ahead,
 * and, after a refusal, until when the bucket has none. Only other takes move a bucket's next
 * token later, so until then a take is refused here, without asking (a flood past its rate
 * asks once a token instead of once a request). Bounded: what is past is dropped as keys
 * come, and a sweep every second drops the rest, so a flood of keys cannot grow it.
 */
export class TokenLeases {
  private readonly leases = new Map<string, Lease>();
  /** Monotonic ms: the shared bucket's next token for the key, as its last refusal said. */
  private readonly emptyUntilMs = new Map<string, number>();
  private lastSweepMs: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.lastSweepMs = this.now();
  }

  /** Keys with something held or known. */
  get size(): number {
    return this.leases.size + this.emptyUntilMs.size;
  }

  /** µs until the shared bucket has a token for `key`, when a refusal said so and that time has not come; otherwise null. */
  knownEmpty(key: string): number | null {
    const now = this.now();
    if (now - this.lastSweepMs >= 1000) this.sweep(now);
    const until = this.emptyUntilMs.get(key);
    if (until === undefined) return null;
    if (until <= now) {
      this.emptyUntilMs.delete(key);
      return null;
    }
    return Math.ceil((until - now) * 1000);
  }

  /**
   * The shared bucket refused `key`: no token for `waitMicros` from its clock's reading, which
   * came after `askedAtMs` (when the take was sent): counted from then, never past the token.
   */
  refused(key: string, waitMicros: number, askedAtMs: number = this.now()): void {
    this.leases.delete(key);
    this.emptyUntilMs.set(key, askedAtMs + waitMicros / 1000);
  }

  /** Spends one held token for `key`, or null when none is held (or the lease ran out). */
  spend(key: string): LeasedTake | null {
    const now = this.now();
    const lease = this.leases.get(key);
    if (!lease) return null;
    if (lease.expiresAtMs <= now || lease.tokens <= 0) {
      this.leases.delete(key);
      return null;
    }
    lease.tokens -= 1;
    if (lease.tokens === 0) this.leases.delete(key);
    return { remaining: lease.bucketRemaining + lease.tokens, waitMicros: Math.max(0, Math.round((lease.fullAtMs - now) * 1000)) };
  }

  /** Keeps `tokens` taken ahead for `key` (beyond the one spent at once), by a take sent at `askedAtMs`. */
  hold(key: string, tokens: number, bucketRemaining: number, waitMicros: number, askedAtMs: number = this.now()): void {
    if (tokens <= 0) return;
    this.leases.set(key, { tokens, bucketRemaining, fullAtMs: askedAtMs + waitMicros / 1000, expiresAtMs: askedAtMs + LEASE_EXPIRY_MS });
  }

  private sweep(now: number): void {
    this.lastSweepMs = now;
    for (const [key, lease] of this.leases) if (lease.expiresAtMs <= now) this.leases.delete(key);
    for (const [key, until] of this.emptyUntilMs) if (until <= now) this.emptyUntilMs.delete(key);
  }
}
