import { FastCounter, FastHistogram } from './fast-metrics';
import { metricsOn } from './registry';

const attempts = new FastCounter('formcast_delivery_attempts_total', ['transport', 'outcome'], 'Delivery attempts by transport (http_transport, dispatch_transport) and outcome: delivered, gone, failed, rejected, deferred');

const attemptDuration = new FastHistogram({
  name: 'formcast_delivery_attempt_duration_seconds',
  help: 'How long one delivery attempt took, by transport',
  labelNames: ['transport'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

/** Counts one attempt by its destination's transport and what came of it. */
export function recordDeliveryAttempt(transport: string, outcome: string, seconds: number): void {
  if (!metricsOn()) return;
  attempts.labels(transport, outcome).inc();
  attemptDuration.labels(transport).observe(seconds);
}
