import { RetryAlarm } from '../../src/worker/retry-alarm';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RetryAlarm', () => {
  it('rings once at each time given, earliest first, whatever the order they came in', async () => {
    const rang: number[] = [];
    const started = Date.now();
    const alarm = new RetryAlarm(() => rang.push(Date.now() - started), Date.now);
    try {
      alarm.add(started + 240);
      alarm.add(started + 80);
      alarm.add(started + 160);
      await sleep(400);
      expect(rang).toHaveLength(3);
      expect(rang[0]).toBeGreaterThanOrEqual(70);
      expect(rang[1]).toBeGreaterThanOrEqual(150);
      expect(rang[2]).toBeGreaterThanOrEqual(230);
      expect(alarm.pending).toBe(0);
    } finally {
      alarm.clear();
    }
  });

  it('rings once for times that have come together, and at once for a time past', async () => {
    let rings = 0;
    const alarm = new RetryAlarm(() => (rings += 1), Date.now);
    try {
      const at = Date.now() + 50;
      alarm.add(at);
      alarm.add(at);
      alarm.add(Date.now() - 1000);
      await sleep(20);
      expect(rings).toBe(1);
      await sleep(100);
      expect(rings).toBe(2);
    } finally {
      alarm.clear();
    }
  });

  it('rings once for times that fall together even when its timer fires early by the clock', async () => {
    let rings = 0;
    let clock = 0;
    const alarm = new RetryAlarm(() => (rings += 1), () => clock);
    try {
      alarm.add(30);
      alarm.add(30);
      // By the time the timer fires, the clock reads a little short of 30 (timers and the
      // wall clock drift apart): the two times still ring once, not once each.
      clock = 29;
      await sleep(100);
      expect(rings).toBe(1);
      expect(alarm.pending).toBe(0);
    } finally {
      alarm.clear();
    }
  });

  it('keeps the earliest times up to its capacity, and rings no more once cleared', async () => {
    let rings = 0;
    const alarm = new RetryAlarm(() => (rings += 1), Date.now, 2);
    alarm.add(Date.now() + 60_000);
    alarm.add(Date.now() + 40);
    alarm.add(Date.now() + 30_000);
    expect(alarm.pending).toBe(2);
    await sleep(100);
    expect(rings).toBe(1);
    expect(alarm.pending).toBe(1);
    alarm.clear();
    expect(alarm.pending).toBe(0);
  });
});
