import { Gauge } from 'prom-client';
import { FastCounter, type CounterChild } from './fast-metrics';
import { metricsOn, metricsRegistry } from './registry';

const shed = new FastCounter('formcast_http_shed_total', ['reason'], 'Requests refused with 503 at once because the gateway was overloaded, by reason: in_flight (too many requests under way) or event_loop_delay');

const rateLimited = new FastCounter('formcast_http_rate_limited_total', ['bucket'], 'Requests refused with 429, by the bucket they were past: organization, device, address, enrollment, enrollment_failures');

const shedChildren = new Map<string, CounterChild>();
const limitedChildren = new Map<string, CounterChild>();

export type ShedReason = 'in_flight' | 'organization_in_flight' | 'event_loop_delay';

/** Counts one request shed (503 at once). */
export function recordShed(reason: ShedReason): void {
  if (!metricsOn()) return;
  let child = shedChildren.get(reason);
  if (!child) shedChildren.set(reason, (child = shed.labels(reason)));
  child.inc();
}

/** Counts one request refused by a rate limit (429). */
export function recordRateLimited(bucket: string): void {
  if (!metricsOn()) return;
  let child = limitedChildren.get(bucket);
  if (!child) limitedChildren.set(bucket, (child = rateLimited.labels(bucket)));
  child.inc();
}

/** What the load shedder reads (set by the gateway's shedder; none: the gauges read 0). */
let loadReading: () => { inFlight: number; eventLoopDelaySeconds: number } = () => ({ inFlight: 0, eventLoopDelaySeconds: 0 });

export function watchLoad(read: typeof loadReading): void {
  loadReading = read;
}

new Gauge({
  name: 'formcast_http_in_flight_requests',
  help: 'Requests the gateway has taken and not yet answered (what the load shedder bounds)',
  registers: [metricsRegistry],
  collect() {
    this.set(loadReading().inFlight);
  },
});

new Gauge({
  name: 'formcast_event_loop_delay_seconds',
  help: "The gateway's event-loop delay (p99 over the shedder's last sampling interval), as the load shedder sees it",
  registers: [metricsRegistry],
  collect() {
    this.set(loadReading().eventLoopDelaySeconds);
  },
});
