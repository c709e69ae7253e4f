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
