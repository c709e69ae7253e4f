import { WakeSignal } from '../../src/worker/wake-signal';

describe('WakeSignal', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const settled = (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    return () => done;
  };

  it('waits for the time given when nobody wakes it', async () => {
    const signal = new WakeSignal();
    const done = settled(signal.wait(1000));
    await jest.advanceTimersByTimeAsync(999);
    expect(done()).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(done()).toBe(true);
  });

  it('ends a wait at once when woken', async () => {
    const signal = new WakeSignal();
    const done = settled(signal.wait(1000));
    signal.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(done()).toBe(true);
  });

  it('keeps a wake that came between two waits, once', async () => {
    const signal = new WakeSignal();
    signal.wake();
    signal.wake();
    const first = settled(signal.wait(1000));
    await jest.advanceTimersByTimeAsync(0);
    expect(first()).toBe(true);
    const second = settled(signal.wait(1000));
    await jest.advanceTimersByTimeAsync(500);
    expect(second()).toBe(false);
  });

  it('ends one wait for every wake of one event-loop turn, and keeps none of them for the next wait', async () => {
    const signal = new WakeSignal();
    const first = settled(signal.wait(1000));
    signal.wake();
    // Attempts ending one after another in the same turn, each after its own awaits.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    signal.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(first()).toBe(true);
    const second = settled(signal.wait(1000));
    await jest.advanceTimersByTimeAsync(500);
    expect(second()).toBe(false);
  });
});
