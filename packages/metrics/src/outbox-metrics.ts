import { Gauge } from 'prom-client';
import { metricsRegistry } from './registry';

/** What an outbox holds: its rows not yet published, and when the oldest of them was written. */
export interface OutboxBacklog {
  count: number;
  /** ISO time the oldest unpublished event occurred; null when the outbox is empty. */
  oldestOccurredAt: string | null;
}

const outboxes = new Set<() => Promise<OutboxBacklog>>();

let reading: Promise<OutboxBacklog[]> | null = null;

/** Every outbox's backlog; both gauges of one scrape share one read (one query per outbox). */
function readOutboxes(): Promise<OutboxBacklog[]> {
  reading ??= Promise.allSettled([...outboxes].map((backlog) => backlog()))
    .then((read) => read.filter((r): r is PromiseFulfilledResult<OutboxBacklog> => r.status === 'fulfilled').map((r) => r.value))
    .finally(() => setTimeout(() => (reading = null), 1000).unref());
  return reading;
}

new Gauge({
  name: 'formcast_outbox_backlog',
  help: 'Events written to the outbox and not yet published (read when scraped)',
  registers: [metricsRegistry],
  async collect() {
    this.set((await readOutboxes()).reduce((sum, backlog) => sum + backlog.count, 0));
  },
});

new Gauge({
  name: 'formcast_outbox_oldest_age_seconds',
  help: 'Age of the oldest event in the outbox, 0 when it is empty (read when scraped)',
  registers: [metricsRegistry],
  async collect() {
    const now = Date.now();
    const ages = (await readOutboxes())
      .map((backlog) => (backlog.oldestOccurredAt === null ? 0 : Math.max(0, (now - Date.parse(backlog.oldestOccurredAt)) / 1000)))
      .filter((age) => Number.isFinite(age));
    this.set(ages.length > 0 ? Math.max(...ages) : 0);
  },
});

/** Reads an outbox's backlog on every scrape, until the returned function is called. */
export function watchOutbox(backlog: () => Promise<OutboxBacklog>): () => void {
  outboxes.add(backlog);
  return () => outboxes.delete(backlog);
}
