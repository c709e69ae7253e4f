import { keyLifetimeMs, runningWindowMs, type ClaimOutcome, type KeyFound, type StoredReply } from './idempotency-store';

/** A key as both adapters hold it (times in ms since the epoch). */
export interface KeyRecord {
  fingerprint: string;
  commandId: string;
  /** The first claim: the key expires `keyLifetimeMs` after it. */
  createdAt: number;
  /** The latest claim (the first, or a takeover of a stale one). */
  claimedAt: number;
  reply: StoredReply | null;
}

/** What a claim writes besides its outcome. */
export type ClaimWrite =
  /** A new record (replacing an expired one, if any). */
  | { write: 'insert'; record: KeyRecord }
  /** The existing record, claimed again at `claimedAt`. */
  | { write: 'reclaim'; claimedAt: number }
  | { write: 'none' };

/** A key found taken writes nothing; a free one (new, or a claim taken over) is written. */
export type ClaimDecision =
  | { outcome: KeyFound; write: 'none' }
  | ({ outcome: Exclude<ClaimOutcome, KeyFound> } & Exclude<ClaimWrite, { write: 'none' }>);

/** True once a key created at `createdAt` has lived its 24 hours. */
export function keyExpired(createdAt: number, now: number): boolean {
  return createdAt <= now - keyLifetimeMs;
}

/**
 * Stripe's rules for a key, as one pure decision both adapters take inside their atomic step:
 * unknown or expired → new; another request's → mismatch; finished → replay; unfinished →
 * running, unless it was claimed by this very command (redelivered) or so long ago that its
 * process must have died → stale (run again under the first command id).
 */
export function decideClaim(
  existing: KeyRecord | undefined,
  request: { fingerprint: string; commandId: string },
  now: Date,
): ClaimDecision {
  const at = now.getTime();
  if (!existing || keyExpired(existing.createdAt, at)) {
    const record: KeyRecord = { ...request, createdAt: at, claimedAt: at, reply: null };
    return { outcome: { kind: 'new' }, write: 'insert', record };
  }
  if (existing.fingerprint !== request.fingerprint) return { outcome: { kind: 'mismatch' }, write: 'none' };
  if (existing.reply) return { outcome: { kind: 'replay', reply: existing.reply }, write: 'none' };
  const abandoned = existing.claimedAt <= at - runningWindowMs;
  if (abandoned || existing.commandId === request.commandId) {
    return { outcome: { kind: 'stale', commandId: existing.commandId }, write: 'reclaim', claimedAt: at };
  }
  return { outcome: { kind: 'running' }, write: 'none' };
}
