const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/**
 * The wait before each attempt, Svix's schedule: the first at once, then 5 s (a receiver
 * that blinked is caught up at once), 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: eight
 * attempts over 27 h 35 min. A delivery whose last attempt fails is failed for good (it can
 * still be redelivered by hand).
 */
export const retryDelaysMs: readonly number[] = [0, 5 * second, 5 * minute, 30 * minute, 2 * hour, 5 * hour, 10 * hour, 10 * hour];

/**
 * Each wait is stretched or shrunk by up to 10% at random, so deliveries that failed
 * together (a receiver's outage) do not all come back at the same instant. With at most
 * -10%, the schedule still spans more than 24 hours (24 h 50 min at the least).
 */
export const retryJitter = 0.1;

/**
 * When the attempt following `attemptsMade` attempts of the current schedule is due, or
 * null when the schedule is exhausted. `random` is in [0, 1).
 */
export function nextAttemptAt(attemptsMade: number, now: number, random: number = Math.random()): number | null {
  const delay = retryDelaysMs[attemptsMade];
  if (delay === undefined) return null;
  return now + Math.round(delay * (1 + retryJitter * (2 * random - 1)));
}

/**
 * When a deferred attempt (our side could not carry it) is tried again: as soon as the first
 * retry, 5 s, jittered likewise, however often it was deferred before.
 */
export function deferredAttemptAt(now: number, random: number = Math.random()): number {
  return nextAttemptAt(1, now, random)!;
}
