import { collectDefaultMetrics, Registry } from 'prom-client';

/** The one registry of this process: every Formcast metric and the process's default ones. */
export const metricsRegistry = new Registry();

let enabled = true;
/** How often the default metrics' event-loop lag histogram takes a sample, in ms. */
export const eventLoopSampleMs = 200;
let defaultMetricsCollected = false;

/**
 * METRICS_ENABLED, read once at a process's start. Off: nothing is recorded and no
 * `/metrics` is served (the bench compares the two). On: the process's own metrics (CPU,
 * memory, event loop lag, GC) are collected as well. Recording is on until told otherwise,
 * so code run without a process entry point (tests) records too.
 */
export function configureMetrics({ enabled: on }: { enabled: boolean }): void {
  enabled = on;
  if (on && !defaultMetricsCollected) {
    // The event-loop lag histogram samples every 200 ms, not prom-client's 10: its timer, 100
    // wakes a second, was most of an idle process's CPU (0.55% of a core; 0.05% at 200 ms,
    // issue 24). 75 samples per 15-s scrape still give its percentiles.
    collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: eventLoopSampleMs });
    defaultMetricsCollected = true;
  }
}

/** Whether metrics are recorded: instrumentation checks it before doing anything else. */
export function metricsOn(): boolean {
  return enabled;
}

/** Seconds since `startedMs` (a `performance.now()` reading). */
export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
