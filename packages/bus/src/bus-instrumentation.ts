import { EventSeries, metricsOn, recordCommand, watchDeadLetters } from '@formcast/metrics';
import type { EventHandler } from './port';

/**
 * What both bus adapters record (packages/metrics): command round trips by name and outcome,
 * event handling by consuming service, name and outcome, redeliveries, and, read on every
 * scrape, the depth of each consuming service's dead-letter queue. Nothing is recorded while
 * metrics are off.
 */
export class BusInstrumentation {
  private readonly unwatch = new Map<string, () => void>();

  /** `deadLetterCount`: the bus's own; null (no such queue) leaves the service out of a scrape. */
  constructor(private readonly deadLetterCount: (service: string) => Promise<number | null>) {}

  /** Sends a command through `send`, timing the round trip (the error's code is the outcome of a failure). */
  async timeCommand<T>(type: string, send: () => Promise<T>): Promise<T> {
    if (!metricsOn()) return send();
    const started = performance.now();
    try {
      const value = await send();
      recordCommand(type, started);
      return value;
    } catch (error) {
      recordCommand(type, started, error);
      throw error;
    }
  }

  /** `handler`, timed by outcome, its redeliveries counted; the service's dead-letter queue is watched from now on. */
  eventHandler(service: string, type: string, handler: EventHandler): EventHandler {
    if (!this.unwatch.has(service)) this.unwatch.set(service, watchDeadLetters(service, () => this.depth(service)));
    const series = new EventSeries(service, type);
    return async (event, delivery) => {
      if (!metricsOn()) return handler(event, delivery);
      if (delivery && (delivery.attempt > 1 || delivery.redelivered)) series.redelivered();
      const started = performance.now();
      try {
        await handler(event, delivery);
      } catch (error) {
        series.handled(started, error);
        throw error;
      }
      series.handled(started);
    };
  }

  private async depth(service: string): Promise<number> {
    const count = await this.deadLetterCount(service);
    if (count === null) throw new Error(`${service} has no dead-letter queue`);
    return count;
  }

  /** The bus closed: its dead-letter queues are no longer read. */
  close(): void {
    for (const stop of this.unwatch.values()) stop();
    this.unwatch.clear();
  }
}
