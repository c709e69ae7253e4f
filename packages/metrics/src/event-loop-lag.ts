import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/** How often the lag histogram takes a sample while awake, in ms (75 samples per 15-s scrape). */
export const eventLoopSampleMs = 200;
/** While awake, how often it checks whether any work came since the last check; none: it sleeps. */
export const lagWakeCheckMs = 2000;

/**
 * A lag histogram held for the process's life by the perf_hooks module itself. A disabled
 * histogram that is collected leaves Node a handle without an owner for a moment, and
 * `process._getActiveHandles()` (prom-client's nodejs_active_handles, on every scrape) then
 * aborts the process (seen under jest, whose module registries come and go). One per
 * process in a service; a few per jest worker. The gateway's load shedder takes its own here
 * for the same reason.
 */
export function pinnedHistogram(resolutionMs: number): IntervalHistogram {
  const key = Symbol.for('formcast.eventLoopLagHistograms');
  // The module object itself (an import would give this module a copy of it under esModuleInterop).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const holder = require('node:perf_hooks') as Record<symbol, IntervalHistogram[] | undefined>;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  try {
    (holder[key] ??= []).push(histogram);
  } catch {
    // A module namespace that takes no property: held by this module only.
  }
  return histogram;
}

/**
 * prom-client's event-loop lag metrics (same names and meaning), from a histogram that sleeps
 * while the process is idle: its timer, a wake every 200 ms for the process's whole life, was
 * most of an idle process's wake-ups (issue 24). Work (an answered request, a handled event or
 * command: `eventLoopWorked()`) wakes it; a check every 2 s that finds none since the last one
 * puts it to sleep. An idle loop is not late, so a scrape of a sleeping one reads 0.
 */
export class EventLoopLag {
  private readonly histogram: IntervalHistogram = pinnedHistogram(eventLoopSampleMs);
  /** Whether its gauges are registered (metrics on): only then does work wake it. */
  private registered = false;
  private check: NodeJS.Timeout | undefined;
  private worked = false;

  /** Some work ran: the histogram samples again (at once if it slept). */
  noteWork(): void {
    if (!this.registered) return;
    this.worked = true;
    if (this.check) return;
    this.histogram.enable();
    this.check = setInterval(() => this.sleepUnlessWorked(), lagWakeCheckMs);
    this.check.unref();
  }

  get awake(): boolean {
    return this.check !== undefined;
  }

  private sleepUnlessWorked(): void {
    if (this.worked) {
      this.worked = false;
      return;
    }
    clearInterval(this.check);
    this.check = undefined;
    this.histogram.disable();
  }

  /** Each reading in seconds (0 without a sample since the last reset), then a reset, as prom-client's collector does. */
  readAndReset(): { min: number; max: number; mean: number; stddev: number; p50: number; p90: number; p99: number } {
    const h = this.histogram;
    const seconds = (ns: number) => (h.count > 0 && Number.isFinite(ns) ? ns / 1e9 : 0);
    const reading = {
      min: seconds(h.min),
      max: seconds(h.max),
      mean: seconds(h.mean),
      stddev: seconds(h.stddev),
      p50: seconds(h.percentile(50)),
      p90: seconds(h.percentile(90)),
      p99: seconds(h.percentile(99)),
    };
    h.reset();
    return reading;
  }

  /** The gauges prom-client's eventLoopLag registers, read from this histogram. */
  register(registry: Registry): void {
    this.registered = true;
    const gauge = (name: string, help: string, aggregator: 'min' | 'max' | 'average', collect?: () => Promise<void>) =>
      new Gauge({ name, help, registers: [registry], aggregator, ...(collect ? { collect } : {}) });
    // Registered first: its collect sets every other gauge before they are read.
    const lag: Gauge = gauge('nodejs_eventloop_lag_seconds', 'Lag of event loop in seconds.', 'average', async () => {
      const r = this.readAndReset();
      min.set(r.min);
      max.set(r.max);
      mean.set(r.mean);
      stddev.set(r.stddev);
      p50.set(r.p50);
      p90.set(r.p90);
      p99.set(r.p99);
      const started = process.hrtime.bigint();
      await new Promise<void>((resolve) => setImmediate(resolve));
      lag.set(Number(process.hrtime.bigint() - started) / 1e9);
    });
    const min = gauge('nodejs_eventloop_lag_min_seconds', 'The minimum recorded event loop delay.', 'min');
    const max = gauge('nodejs_eventloop_lag_max_seconds', 'The maximum recorded event loop delay.', 'max');
    const mean = gauge('nodejs_eventloop_lag_mean_seconds', 'The mean of the recorded event loop delays.', 'average');
    const stddev = gauge('nodejs_eventloop_lag_stddev_seconds', 'The standard deviation of the recorded event loop delays.', 'average');
    const p50 = gauge('nodejs_eventloop_lag_p50_seconds', 'The 50th percentile of the recorded event loop delays.', 'average');
    const p90 = gauge('nodejs_eventloop_lag_p90_seconds', 'The 90th percentile of the recorded event loop delays.', 'average');
    const p99 = gauge('nodejs_eventloop_lag_p99_seconds', 'The 99th percentile of the recorded event loop delays.', 'average');
  }
}

export const eventLoopLag = new EventLoopLag();

/** Work ran on this process's loop (a request answered, an event or command handled): the lag histogram samples. */
export function eventLoopWorked(): void {
  eventLoopLag.noteWork();
}
