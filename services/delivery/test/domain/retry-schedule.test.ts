import { attemptOutcome, dispatchResult, failingDestinationDeactivationMs, httpResult } from '../../src/domain/attempt-outcome';
import { nextAttemptAt, retryDelaysMs, retryJitter } from '../../src/domain/retry-schedule';

const hour = 60 * 60 * 1000;

describe('the retry schedule', () => {
  it("is Svix's: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h", () => {
    expect(retryDelaysMs).toEqual([0, 5000, 300_000, 1_800_000, 2 * hour, 5 * hour, 10 * hour, 10 * hour]);
    expect(nextAttemptAt(0, 1000, 0.5)).toBe(1000);
    expect(nextAttemptAt(1, 1000, 0.5)).toBe(6000);
    expect(nextAttemptAt(8, 1000, 0.5)).toBeNull();
  });

  it('jitters each wait by up to 10% either way', () => {
    expect(nextAttemptAt(2, 0, 0)).toBe(270_000);
    expect(nextAttemptAt(2, 0, 0.999999)).toBeCloseTo(330_000, -1);
  });

  it('keeps trying for at least 24 hours even with the shortest jitter', () => {
    const shortest = retryDelaysMs.reduce((sum, delay) => sum + delay * (1 - retryJitter), 0);
    expect(shortest).toBeGreaterThanOrEqual(24 * hour);
  });
});

describe('the outcome of an attempt', () => {
  const now = Date.parse('2026-05-04T10:00:00.000Z');
  const at = '2026-05-04T10:00:00.000Z';

  it('a 2xx succeeds and makes the destination healthy', () => {
    expect(attemptOutcome({ kind: 'delivered' }, 3, now)).toEqual({ status: 'succeeded', nextAttemptAt: null, health: { kind: 'healthy' } });
  });

  it('a 410 ends the delivery and deactivates the destination', () => {
    expect(attemptOutcome({ kind: 'gone' }, 1, now)).toEqual({ status: 'failed', nextAttemptAt: null, health: { kind: 'gone', at } });
  });

  it('anything else is tried again on the schedule, the destination failing since then', () => {
    expect(attemptOutcome({ kind: 'failed' }, 1, now, 0.5)).toEqual({ status: 'pending', nextAttemptAt: now + 5000, health: { kind: 'failing', at } });
    expect(attemptOutcome({ kind: 'failed' }, 7, now, 0.5)).toMatchObject({ status: 'pending', nextAttemptAt: now + 10 * hour });
  });

  it('the last attempt failing fails the delivery, and deactivates a destination failing for five days', () => {
    const cutoff = new Date(now - failingDestinationDeactivationMs).toISOString();
    expect(cutoff).toBe('2026-04-29T10:00:00.000Z');
    expect(attemptOutcome({ kind: 'failed' }, 8, now)).toEqual({
      status: 'failed',
      nextAttemptAt: null,
      health: { kind: 'failing_for_good', at, cutoff },
    });
  });

  it('a deferred attempt is tried again in 5 s however often it was deferred, using up no step, the destination as it was', () => {
    for (const attemptsMade of [1, 2, 7, 8]) {
      expect(attemptOutcome({ kind: 'deferred' }, attemptsMade, now, 0.5)).toEqual({
        status: 'pending',
        nextAttemptAt: now + 5000,
        health: { kind: 'unchanged' },
        deferred: true,
      });
    }
  });

  it('a rejected dispatch fails at once, counted like a delivery that ran out of attempts', () => {
    expect(attemptOutcome({ kind: 'rejected' }, 1, now)).toMatchObject({ status: 'failed', nextAttemptAt: null, health: { kind: 'failing_for_good' } });
  });
});

describe('what an attempt came to', () => {
  it('over HTTP: 2xx delivered, 410 gone, anything else (redirects too) failed, and no answer in time failed', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(httpResult(status, null)).toEqual({ kind: 'delivered' });
    expect(httpResult(410, null)).toEqual({ kind: 'gone' });
    for (const status of [100, 301, 302, 307, 400, 404, 429, 500, 503]) expect(httpResult(status, null)).toEqual({ kind: 'failed' });
    expect(httpResult(null, 'connect ECONNREFUSED 127.0.0.1:9')).toEqual({ kind: 'failed' });
    expect(httpResult(200, 'no answer within 10000 ms')).toEqual({ kind: 'failed' });
  });

  it('as a dispatch: refused commands are not sent again; those the bus did not carry are deferred; others failed', () => {
    expect(dispatchResult(null)).toEqual({ kind: 'delivered' });
    for (const code of ['invalid', 'not_found', 'forbidden'] as const) expect(dispatchResult(code)).toEqual({ kind: 'rejected' });
    for (const code of ['unavailable', 'timeout'] as const) expect(dispatchResult(code)).toEqual({ kind: 'deferred' });
    expect(dispatchResult('internal')).toEqual({ kind: 'failed' });
  });
});
