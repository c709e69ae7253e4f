import { eventLoopWorked } from './event-loop-lag';
import { Gauge } from 'prom-client';
import { FastCounter, FastHistogram, type CounterChild, type HistogramChild } from './fast-metrics';
import { GaugeSources } from './gauge-sources';
import { outcomeOfError } from './outcome';
import { metricsRegistry, secondsSince } from './registry';

const busBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const commandDuration = new FastHistogram({
  name: 'formcast_bus_command_duration_seconds',
  help: 'Command round trips (request to reply) by command name and outcome: ok, an error code (not_found, …), timeout, unavailable',
  labelNames: ['command', 'outcome'],
  buckets: busBuckets,
});

const eventDuration = new FastHistogram({
  name: 'formcast_bus_event_duration_seconds',
  help: 'Event handling by consumer (the subscribing service), event name and outcome (ok, or the error that will make it retried)',
  labelNames: ['consumer', 'event', 'outcome'],
  buckets: busBuckets,
});

const redeliveries = new FastCounter('formcast_bus_event_redeliveries_total', ['consumer', 'event'], 'Events handled again: a retry after a failed attempt, or a delivery the broker marked redelivered');

const deadLetterSources = new GaugeSources((values) => Math.max(...values));

new Gauge({
  name: 'formcast_bus_dead_letters',
  help: 'Events waiting in a consumer\'s dead-letter queue (read when scraped)',
  labelNames: ['consumer'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const [service, depth] of await deadLetterSources.read()) this.set({ consumer: service }, depth);
  },
});

type Child = HistogramChild;

/** One command name's children: `ok` made with it, the error outcomes on first use. */
class CommandSeries {
  readonly ok: Child;
  private readonly failed = new Map<string, Child>();

  constructor(private readonly command: string) {
    this.ok = commandDuration.labels(command, 'ok');
  }

  failure(outcome: string): Child {
    let child = this.failed.get(outcome);
    if (!child) this.failed.set(outcome, (child = commandDuration.labels(this.command, outcome)));
    return child;
  }
}

const commands = new Map<string, CommandSeries>();

function commandSeries(command: string): CommandSeries {
  let series = commands.get(command);
  if (!series) commands.set(command, (series = new CommandSeries(command)));
  return series;
}

/** Records a command's round trip (from `performance.now()` reading `startedMs`): ok, or the error's code. */
export function recordCommand(command: string, startedMs: number, error?: unknown): void {
  eventLoopWorked();
  const series = commandSeries(command);
  (error === undefined ? series.ok : series.failure(outcomeOfError(error))).observe(secondsSince(startedMs));
}

/** One consumer's event type: its `ok` child and redelivery counter made with it, failures on first use. */
export class EventSeries {
  private readonly ok: Child;
  private readonly again: CounterChild;
  private readonly failed = new Map<string, Child>();

  constructor(
    private readonly service: string,
    private readonly event: string,
  ) {
    this.ok = eventDuration.labels(service, event, 'ok');
    this.again = redeliveries.labels(service, event);
  }

  redelivered(): void {
    this.again.inc();
  }

  handled(startedMs: number, error?: unknown): void {
    eventLoopWorked();
    let child = this.ok;
    if (error !== undefined) {
      const outcome = outcomeOfError(error);
      child = this.failed.get(outcome) ?? eventDuration.labels(this.service, this.event, outcome);
      this.failed.set(outcome, child);
    }
    child.observe(secondsSince(startedMs));
  }
}

/** Reads the depth of `service`'s dead-letter queue on every scrape, until the returned function is called. */
export function watchDeadLetters(service: string, depth: () => Promise<number>): () => void {
  return deadLetterSources.add(service, depth);
}
