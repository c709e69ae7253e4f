import { MemoryTokenBucket } from '../../src/http/token-bucket';

/** A clock the test moves (µs). */
function fakeClock() {
  let now = 1_000_000_000;
  return { now: () => now, advance: (micros: number) => (now += micros) };
}

describe('token bucket (GCRA)', () => {
  it('takes the whole burst at once, then one token per refill interval, and says how long until the next', () => {
    const clock = fakeClock();
    const bucket = new MemoryTokenBucket({ perSecond: 10, burst: 5 }, { now: clock.now });
    const burst = Array.from({ length: 5 }, () => bucket.takeNow('k'));
    expect(burst.map((v) => [v.allowed, v.remaining])).toEqual([
      [true, 4],
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    // Full again 5 tokens × 100 ms after the first.
    expect(burst[4]!.waitMicros).toBe(500_000);
    expect(bucket.takeNow('k')).toEqual({ allowed: false, remaining: 0, waitMicros: 100_000 });
    clock.advance(60_000);
    expect(bucket.takeNow('k')).toEqual({ allowed: false, remaining: 0, waitMicros: 40_000 });
    clock.advance(40_000);
    expect(bucket.takeNow('k')).toMatchObject({ allowed: true, remaining: 0 });
    expect(bucket.takeNow('k').allowed).toBe(false);
    // Over the next 10 s at one attempt every 10 ms: exactly 100 more (10 a second), never 2×.
    let taken = 0;
    for (let n = 0; n < 1000; n += 1) {
      clock.advance(10_000);
      if (bucket.takeNow('k').allowed) taken += 1;
    }
    expect(taken).toBe(100);
  });

  it('refills no more than its size, however long it rests', () => {
    const clock = fakeClock();
    const bucket = new MemoryTokenBucket({ perSecond: 10, burst: 5 }, { now: clock.now });
    for (let n = 0; n < 5; n += 1) bucket.takeNow('k');
    clock.advance(3_600_000_000);
    const after = Array.from({ length: 7 }, () => bucket.takeNow('k').allowed);
    expect(after).toEqual([true, true, true, true, true, false, false]);
  });

  it('holds a rate under one a second: one token per 100 s at 0.01', () => {
    const clock = fakeClock();
    const setting = { perSecond: 0.01, burst: 1 };
    const bucket = new MemoryTokenBucket(setting, { now: clock.now });
    expect(bucket.takeNow('k')).toEqual({ allowed: true, remaining: 0, waitMicros: 100_000_000 });
    clock.advance(99_000_000);
    expect(bucket.takeNow('k')).toEqual({ allowed: false, remaining: 0, waitMicros: 1_000_000 });
    clock.advance(1_000_000);
    expect(bucket.takeNow('k').allowed).toBe(true);
    // A non-integer interval (1/3 s) on a clock of whole µs: each token comes within the µs it is due, not a take later.
    let now = 1e15;
    const thirds = new MemoryTokenBucket({ perSecond: 3, burst: 1 }, { now: () => now });
    const start = now;
    const verdicts = Array.from({ length: 30 }, (_, n) => {
      now = start + Math.floor((n * 1e6) / 3);
      return [thirds.takeNow('k').allowed, thirds.takeNow('k').allowed];
    });
    expect(verdicts).toEqual(Array.from({ length: 30 }, () => [true, false]));
  });

  it('keeps no more than its cap of keys: the least recently used goes first', () => {
    const clock = fakeClock();
    const bucket = new MemoryTokenBucket({ perSecond: 1, burst: 2 }, { now: clock.now, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) bucket.takeNow(key);
    bucket.takeNow('a'); // a is used again: b is now the least recent
    for (let n = 0; n < 1000; n += 1) bucket.takeNow(`flood-${n}`);
    expect(bucket.size).toBe(3);
    // The flood pushed out a, b and c: each starts full again.
    expect([bucket.takeNow('a'), bucket.takeNow('a')].map((v) => v.allowed)).toEqual([true, true]);
  });

  it('drops the keys whose bucket is full again', () => {
    const clock = fakeClock();
    const bucket = new MemoryTokenBucket({ perSecond: 10, burst: 5 }, { now: clock.now, sweepMicros: 1_000_000 });
    for (let n = 0; n < 50; n += 1) bucket.takeNow(`key-${n}`);
    expect(bucket.size).toBe(50);
    clock.advance(2_000_000);
    bucket.takeNow('late');
    expect(bucket.size).toBe(1);
    // A refused take stores nothing new.
    for (let n = 0; n < 5; n += 1) bucket.takeNow('late');
    expect(bucket.size).toBe(1);
  });
});
