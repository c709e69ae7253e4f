import { Registry } from 'prom-client';
import { collectDefaultMetricsButLag } from './default-metrics';
import { eventLoopLag } from './event-loop-lag';

/** The one registry of this process: every Formcast metric and the process's default ones. */
export const metricsRegistry = new Registry();

let enabled = true;
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
    // The event-loop lag histogram samples every 200 ms, not prom-client's 10 (100 wakes a
    // second were most of an idle process's CPU), and only while work comes (issue 24).
    eventLoopLag.register(metricsRegistry);
    collectDefaultMetricsButLag(metricsRegistry);
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
