import type { Delivery, Destination } from '../api/types';

export type DestinationHealth = { kind: 'off'; reason: string } | { kind: 'failing'; detail: string } | { kind: 'ok' } | { kind: 'unused' };

/** The last attempt of a delivery, or undefined before its first. */
function lastAttempt(delivery: Delivery) {
  return delivery.attempts[delivery.attempts.length - 1];
}

/**
 * What the page marks a destination as: off when deactivated; failing when its newest
 * delivery has not succeeded and its last attempt failed; ok otherwise.
 */
export function destinationHealth(destination: Destination, newestFirst: Delivery[]): DestinationHealth {
  if (!destination.active) return { kind: 'off', reason: destination.deactivated_reason ?? 'turned off' };
  const newest = newestFirst[0];
  if (newest === undefined) return { kind: 'unused' };
  const attempt = lastAttempt(newest);
  if (newest.status !== 'succeeded' && attempt !== undefined) {
    return { kind: 'failing', detail: attempt.status_code !== null ? `answered ${attempt.status_code}` : (attempt.error ?? 'no answer') };
  }
  return { kind: 'ok' };
}
