import type { ErrorBody } from '@formcast/contracts';

/** The answer a key gives back: the first request's value, or its error (a 4xx). */
export type StoredReply = { ok: true; value: unknown } | { ok: false; error: ErrorBody };

/** What `claim` found for a key, and so what the caller does. */
export type ClaimOutcome =
  /** The key is the caller's now: run the command, then `complete` (or `release`). */
  | { kind: 'new' }
  /** The first request with this key finished: answer what it answered. */
  | { kind: 'replay'; reply: StoredReply }
  /** Another request with this key is being processed (claimed a moment ago). */
  | { kind: 'running' }
  /** The key was used for another request (method, path or body). */
  | { kind: 'mismatch' }
  /**
   * The first request with this key never completed (its process died, or this is that very
   * command delivered again): the key is the caller's now; run the command again under
   * `commandId`, the first attempt's, so a store that remembers command ids answers what the
   * first attempt did instead of creating twice.
   */
  | { kind: 'stale'; commandId: string };

/** What a claim finds when the key is not the caller's: the caller answers from it and runs nothing. */
export type KeyFound = Extract<ClaimOutcome, { kind: 'replay' | 'running' | 'mismatch' }>;

/** A request carrying a key, as the stores take it. */
export interface KeyRequest {
  orgId: number;
  key: string;
  /** The request's method, path and body, hashed. */
  fingerprint: string;
  /** The command carrying the request. */
  commandId: string;
  now: Date;
}

/**
 * Idempotency keys of one service, per organization, in the service's own database. Each key
 * lives `keyLifetimeMs` (24 h) from its first claim; afterwards it is as if never used.
 */
export interface IdempotencyStore {
  /**
   * Takes `key` for a request (`fingerprint`: its method, path and body, hashed) carried by
   * the command `commandId`, atomically: of two claims at once, one gets `new`, the other
   * `running`.
   */
  claim(orgId: number, key: string, fingerprint: string, commandId: string, now: Date): Promise<ClaimOutcome>;
  /** What `claim` would answer now, writing nothing: a key found (see KeyFound), or free (`new`, `stale`). */
  peek(orgId: number, key: string, fingerprint: string, commandId: string, now: Date): Promise<ClaimOutcome>;
  /**
   * Claims and completes the key in one write, when it is free: a request answered without a
   * claim (refused before its writes) keeps its answer. A key found taken is left as it is.
   */
  keep(request: KeyRequest, reply: StoredReply): Promise<void>;
  /** Records the answer of a claimed key; later claims replay it. */
  complete(orgId: number, key: string, reply: StoredReply): Promise<void>;
  /** Forgets a claimed key that did not complete (the command failed unexpectedly): it may be used again at once. */
  release(orgId: number, key: string): Promise<void>;
  /** Deletes up to `limit` keys past their lifetime at `now`; answers how many. Adapters also do it as they write. */
  prune(now: Date, limit: number): Promise<number>;
  /** Closes what the store opened itself (a store on a connection it was handed leaves that open). */
  close(): Promise<void>;
}

/** How long a key is kept: 24 hours from its first use, as Stripe does. */
export const keyLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * A claim younger than this that has not completed is taken for a request still running
 * (409); an older one for a request whose process died (run again). Far above a command's
 * timeout (`COMMAND_TIMEOUT_MS`, 10 s by default).
 */
export const runningWindowMs = 60 * 1000;
