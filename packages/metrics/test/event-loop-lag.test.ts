import { Registry } from 'prom-client';
import { EventLoopLag, lagWakeCheckMs } from '../src/event-loop-lag';
import { configureMetrics, eventLoopLag, parseExposition, recordHttpRequest, renderMetrics, sampleValue } from '../src';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Blocks the event loop for `ms`. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('the event-loop lag histogram (issue 24: no timer while idle)', () => {
  it('sleeps until work comes, samples while it comes, and sleeps again a check after it stops', async () => {
    const lag = new EventLoopLag();
    lag.noteWork();
    expect(lag.awake).toBe(false); // metrics off (its gauges not registered): work does not wake it
    lag.register(new Registry());
    expect(lag.awake).toBe(false);
    lag.noteWork();
    expect(lag.awake).toBe(true);
    await sleep(lagWakeCheckMs + 200);
    expect(lag.awake).toBe(true); // the first check finds the work noted
    await sleep(lagWakeCheckMs);
    expect(lag.awake).toBe(false);
  }, 15_000);

  it('records a block while awake; reads 0 once reset with no sample, never a bogus extreme', async () => {
    const lag = new EventLoopLag();
    lag.register(new Registry());
    lag.noteWork();
    await sleep(250);
    block(450);
    await sleep(250);
    const busy = lag.readAndReset();
    expect(busy.max).toBeGreaterThan(0.2);
    const empty = lag.readAndReset();
    expect(empty).toEqual({ min: 0, max: 0, mean: 0, stddev: 0, p50: 0, p90: 0, p99: 0 });
  });

  it('keeps prom-client\'s names in the exposition, woken by an answered request', async () => {
    configureMetrics({ enabled: true });
    recordHttpRequest('/lag', 'GET', 200, 0.001);
    expect(eventLoopLag.awake).toBe(true);
    await sleep(250);
    block(450);
    await sleep(250);
    const samples = parseExposition((await renderMetrics()).body);
    for (const name of ['seconds', 'min_seconds', 'mean_seconds', 'stddev_seconds', 'p50_seconds', 'p90_seconds', 'p99_seconds']) {
      expect(samples.some((s) => s.name === `nodejs_eventloop_lag_${name}`)).toBe(true);
    }
    expect(sampleValue(samples, 'nodejs_eventloop_lag_max_seconds', {})).toBeGreaterThan(0.2);
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_total_bytes')).toBe(true);
  });
});
