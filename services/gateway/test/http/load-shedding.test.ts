import { LoadShedder } from '../../src/http/load-shedding';

describe('LoadShedder', () => {
  it('sheds while the event loop runs later than SHED_EVENT_LOOP_DELAY_MS, and stops once it catches up', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 100, sampleIntervalMs: 200 });
    try {
      expect(shedder.reason()).toBeNull();
      // The loop blocked for 300 ms: the reading made as it ends sees it, and holds for an interval.
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // busy
      }
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(shedder.reason()).toBe('event_loop_delay');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(shedder.reason()).toBeNull();
    } finally {
      shedder.stop();
    }
  });
});

describe('LoadShedder, idle', () => {
  const request = () => {
    const listeners: Array<() => void> = [];
    const res = { once: (_event: string, listener: () => void) => listeners.push(listener), setHeader: () => undefined };
    return { req: { path: '/clients/x/oneshots.json' }, res, close: () => listeners.forEach((listener) => listener()) };
  };

  it('stops watching the event loop after an interval without requests, and a request wakes it', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 100, sampleIntervalMs: 50 });
    try {
      expect(shedder.watching).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 130));
      expect(shedder.watching).toBe(false);
      const { req, res, close } = request();
      let passed = false;
      shedder.middleware(req as never, res as never, () => (passed = true));
      expect(passed).toBe(true);
      expect(shedder.watching).toBe(true);
      // Awake while the request is under way, whatever the intervals.
      await new Promise((resolve) => setTimeout(resolve, 130));
      expect(shedder.watching).toBe(true);
      close();
      // A late loop is still seen after a wake: the block below is read, and sheds.
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // busy
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(shedder.reason()).toBe('event_loop_delay');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(shedder.reason()).toBeNull();
      expect(shedder.watching).toBe(false);
    } finally {
      shedder.stop();
    }
  });
});
