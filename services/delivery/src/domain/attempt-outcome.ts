import type { DeliveryStatus, ErrorCode } from '@formcast/contracts';
import { deferredAttemptAt, nextAttemptAt } from './retry-schedule';

/** What one attempt came to, whatever the transport. */
export type AttemptResult =
  /** A 2xx answer within the timeout; a dispatch pushed. */
  | { kind: 'delivered' }
  /** 410 Gone: the receiver says it wants no more. */
  | { kind: 'gone' }
  /** Any other answer, no answer, a timeout, a refused address: worth trying again. */
  | { kind: 'failed' }
  /** Cannot succeed by being sent again (a dispatch whose target template is gone): no retry. */
  | { kind: 'rejected' }
  /**
   * Our own side could not carry it (a dispatch while the bus is down, or push did not answer
   * in time): no fault of the destination's, so it is tried again soon and the schedule is
   * not used up. The command id makes a dispatch sent again apply once.
   */
  | { kind: 'deferred' };

/**
 * An HTTP attempt's result: a 2xx within the timeout is delivered (`error` is set when the
 * answer did not come whole in time), 410 is gone, anything else failed: a redirect is
 * not followed, and counts as a failure.
 */
export function httpResult(statusCode: number | null, error: string | null): AttemptResult {
  if (error !== null || statusCode === null) return { kind: 'failed' };
  if (statusCode >= 200 && statusCode < 300) return { kind: 'delivered' };
  if (statusCode === 410) return { kind: 'gone' };
  return { kind: 'failed' };
}

/**
 * An email attempt's result from the SMTP server's last reply: 2xx delivered, 5xx a
 * permanent refusal (no retry: the same message would be refused again), 4xx or no answer
 * (refused connection, timeout) temporary, tried again on the schedule.
 */
export function smtpResult(statusCode: number | null, error: string | null): AttemptResult {
  if (statusCode !== null && statusCode >= 500 && statusCode < 600) return { kind: 'rejected' };
  if (error === null && statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: 'delivered' };
  return { kind: 'failed' };
}

/** Errors of the push command that sending it again cannot mend (push would refuse it the same way). */
const permanentCommandErrors: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['invalid', 'not_found', 'forbidden', 'unauthorized', 'unprocessable', 'conflict', 'too_large']);

/** Errors of the bus itself: the command did not get through, or its answer did not come back. */
const transportCommandErrors: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['unavailable', 'timeout']);

/** A dispatch attempt's result from the push command's error code (null: it succeeded). */
export function dispatchResult(errorCode: ErrorCode | null): AttemptResult {
  if (errorCode === null) return { kind: 'delivered' };
  if (permanentCommandErrors.has(errorCode)) return { kind: 'rejected' };
  return transportCommandErrors.has(errorCode) ? { kind: 'deferred' } : { kind: 'failed' };
}

/**
 * How long a destination may fail every attempt before it is deactivated, counted from its
 * first failure after its last success, and checked when one of its deliveries fails for
 * good. Svix's rule: five days. A destination is never deactivated by one bad day, and at
 * least one delivery has gone through its whole schedule (more than 24 h) before it is.
 */
export const failingDestinationDeactivationMs = 5 * 24 * 60 * 60 * 1000;

/** What an attempt changes in its destination's health, applied atomically by the store. */
export type DestinationHealthChange =
  /** `failingSince` back to null. */
  | { kind: 'healthy' }
  /** `failingSince` set to `at` unless already set. */
  | { kind: 'failing'; at: string }
  /** Deactivated, reason `gone`. */
  | { kind: 'gone'; at: string }
  /** `failing` and, when `failingSince` is at or before `cutoff`, deactivated with reason `failing`. */
  | { kind: 'failing_for_good'; at: string; cutoff: string }
  /** As it was (a deferred attempt says nothing about the destination). */
  | { kind: 'unchanged' };

export interface AttemptOutcome {
  status: DeliveryStatus;
  /** Epoch ms of the next attempt; null when there is none. */
  nextAttemptAt: number | null;
  health: DestinationHealthChange;
  /** Set when the attempt does not use up a step of the schedule (a deferred one). */
  deferred?: true;
}

/**
 * The delivery's state and its destination's health after an attempt. `attemptsMade`
 * counts this attempt (1 after the first of the schedule).
 */
export function attemptOutcome(result: AttemptResult, attemptsMade: number, now: number, random?: number): AttemptOutcome {
  const at = new Date(now).toISOString();
  switch (result.kind) {
    case 'delivered':
      return { status: 'succeeded', nextAttemptAt: null, health: { kind: 'healthy' } };
    case 'gone':
      return { status: 'failed', nextAttemptAt: null, health: { kind: 'gone', at } };
    case 'rejected':
      return { status: 'failed', nextAttemptAt: null, health: diedHealth(at, now) };
    case 'deferred':
      return { status: 'pending', nextAttemptAt: deferredAttemptAt(now, random), health: { kind: 'unchanged' }, deferred: true };
    case 'failed': {
      const next = nextAttemptAt(attemptsMade, now, random);
      if (next !== null) return { status: 'pending', nextAttemptAt: next, health: { kind: 'failing', at } };
      return { status: 'failed', nextAttemptAt: null, health: diedHealth(at, now) };
    }
  }
}

function diedHealth(at: string, now: number): DestinationHealthChange {
  return { kind: 'failing_for_good', at, cutoff: new Date(now - failingDestinationDeactivationMs).toISOString() };
}
