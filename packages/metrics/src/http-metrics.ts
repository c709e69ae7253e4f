import { eventLoopWorked } from './event-loop-lag';
import { FastCounter, FastHistogram, type CounterChild, type HistogramChild } from './fast-metrics';

const requests = new FastCounter('formcast_http_requests_total', ['route', 'method', 'status'], 'HTTP requests answered, by route template (no ids), method and status');

const duration = new FastHistogram({
  name: 'formcast_http_request_duration_seconds',
  help: 'Time from a request\'s arrival to the end of its answer, by route template and method',
  labelNames: ['route', 'method'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/** One route and method's series: its histogram child and a counter child per status, made once. */
class RouteSeries {
  private readonly byStatus = new Map<number, CounterChild>();
  private readonly latency: HistogramChild;

  constructor(
    private readonly route: string,
    private readonly method: string,
  ) {
    this.latency = duration.labels(route, method);
  }

  record(status: number, seconds: number): void {
    let count = this.byStatus.get(status);
    if (!count) this.byStatus.set(status, (count = requests.labels(this.route, this.method, String(status))));
    count.inc();
    this.latency.observe(seconds);
  }
}

const series = new Map<string, Map<string, RouteSeries>>();

/**
 * Counts one answered request and its latency. `route` is a template (`/clients/:deviceRef/oneshots`),
 * so label values stay few; their children are made on first use and kept.
 */
export function recordHttpRequest(route: string, method: string, status: number, seconds: number): void {
  eventLoopWorked();
  let byMethod = series.get(route);
  if (!byMethod) series.set(route, (byMethod = new Map()));
  let one = byMethod.get(method);
  if (!one) byMethod.set(method, (one = new RouteSeries(route, method)));
  one.record(status, seconds);
}
