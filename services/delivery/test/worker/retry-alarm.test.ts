import { RetryAlarm } from '../../src/worker/retry-alarm';

// On jest's fake clock (timers and Date.now together): a loaded machine's late timers
// cannot change what rang by when.
beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

describe('RetryAlarm', () => {
  it('rings once at each time given, earliest first, whatever the order they came in', () => {
    const rang: number[] = [];
    const started = Date.now();
    const alarm = new RetryAlarm(() => rang.push(Date.now() - started), Date.now);
    try {
      alarm.add(started + 240);
      alarm.add(started + 80);
      alarm.add(started + 160);
      jest.advanceTimersByTime(79);
      expect(rang).toEqual([]);
      jest.advanceTimersByTime(400);
      expect(rang).toEqual([80, 160, 240]);
      expect(alarm.pending).toBe(0);
    } finally {
      alarm.clear();
    }
  });

  it('rings once for times that have come together, and at once for a time past', () => {
    let rings = 0;
    const alarm = new RetryAlarm(() => (rings += 1), Date.now);
    try {
      const at = Date.now() + 50;
      alarm.add(at);
      alarm.add(at);
      alarm.add(Date.now() - 1000);
      jest.advanceTimersByTime(0);
      expect(rings).toBe(1);
      jest.advanceTimersByTime(49);
      expect(rings).toBe(1);
      jest.advanceTimersByTime(1);
      expect(rings).toBe(2);
      jest.advanceTimersByTime(1000);
      expect(rings).toBe(2);
    } finally {
      alarm.clear();
    }
  });

  it('rings once for times that fall together even when its timer fires early by the clock', () => {
    let rings = 0;
    let clock = 0;
    const alarm = new RetryAlarm(() => (rings += 1), () => clock);
    try {
      alarm.add(30);
      alarm.add(30);
      // By the time the timer fires, the clock reads a little short of 30 (timers and the
      // wall clock drift apart): the two times still ring once, not once each.
      clock = 29;
      jest.advanceTimersByTime(100);
      expect(rings).toBe(1);
      expect(alarm.pending).toBe(0);
    } finally {
      alarm.clear();
    }
  });

  it('keeps the earliest times up to its capacity, and rings no more once cleared', () => {
    let rings = 0;
    const alarm = new RetryAlarm(() => (rings += 1), Date.now, 2);
    alarm.add(Date.now() + 60_000);
    alarm.add(Date.now() + 40);
    alarm.add(Date.now() + 30_000);
    expect(alarm.pending).toBe(2);
    jest.advanceTimersByTime(100);
    expect(rings).toBe(1);
    expect(alarm.pending).toBe(1);
    alarm.clear();
    expect(alarm.pending).toBe(0);
    jest.advanceTimersByTime(120_000);
    expect(rings).toBe(1);
  });
});
