import type { Bus } from '@formcast/bus';
import { watchOutbox } from '@formcast/metrics';
import type { Logger } from '@formcast/platform';
import { outsideAnyTrace } from '@formcast/tracing';
import type { OutboxEntry, PushStore } from '../store/push-store';

export interface OutboxRelayOptions {
  /**
   * How often to look when nothing woke the relay: a safety net only (every write in this
   * process wakes it; a start, and a failed publish's retry, look anyway).
   */
  pollMs?: number;
  batchSize?: number;
  /** Wait after a failed publish before trying again, doubled up to 30 s. */
  retryMs?: number;
}

/** The relay's look when nothing woke it (issue 24: it looked every second, idle or not). */
export const outboxSafetyPollMs = 10_000;

/**
 * Publishes what the store's outbox holds, oldest first, and removes each event once the
 * broker confirmed it. Woken after every write, and at its start (events written just
 * before a crash go out after the restart); a slow poll (10 s) is only a safety net. A store
 * that hands its events over at their commit (SQLite) is not read back in the usual case:
 * it is read at the start, on the poll, after a failure and when more than a batch waits.
 * At-least-once: an event may go out twice if the
 * process dies between the confirm and the removal, or when replicas on one store run a
 * relay each and both read it before either removed it; consumers drop duplicates by id.
 */
export class OutboxRelay {
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly retryMs: number;
  private running = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private unwatch: (() => void) | null = null;
  /** Events the store handed over at their commit, not yet taken (see PushStore.onEventCommitted). */
  private handed: OutboxEntry[] = [];
  /** Whether the next look reads the outbox: at the start, after a failure, on the safety poll, with a backlog, or with a store that hands nothing over. */
  private mustRead = true;
  private readonly handsOver: boolean;
  /** How many times more than a batch was handed over (the outbox is read then). */
  private overflows = 0;

  constructor(
    private readonly store: PushStore,
    private readonly bus: Bus,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.pollMs = options.pollMs ?? outboxSafetyPollMs;
    this.batchSize = options.batchSize ?? 200;
    this.retryMs = options.retryMs ?? 200;
    this.handsOver = typeof store.onEventCommitted === 'function';
    store.onEventCommitted?.((entry) => this.take(entry));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.mustRead = true;
    // The backlog and its oldest event's age, read when metrics are scraped.
    this.unwatch = watchOutbox(() => this.store.outboxBacklog());
    this.wake();
  }

  /**
   * Something was written: publish it soon. On a later turn of the event loop, so the
   * writes of one turn go out in one batch, read and removed with one statement each.
   */
  wake(): void {
    if (!this.running) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.clearTimer();
    // Outside the trace of whichever request woke it: each event's publish joins the trace it was written in.
    this.draining = outsideAnyTrace(() => new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain())).finally(() => {
      this.draining = null;
      if (!this.running) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.schedule(this.failures > 0 ? Math.min(this.retryMs * 2 ** (this.failures - 1), 30000) : this.pollMs);
      }
    });
  }

  /** Stops after the batch in flight; what is left stays in the outbox for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    this.unwatch?.();
    this.unwatch = null;
    this.clearTimer();
    await this.draining;
  }

  /**
   * An event committed in this process: published from here, not read back (issue 24: the
   * read was 4% of an embedded push's CPU). More than a batch waiting, the outbox is read
   * instead, fairly across organizations.
   */
  private take(entry: OutboxEntry): void {
    if (!this.running) return;
    if (this.handed.length >= this.batchSize) {
      this.handed = [];
      this.overflows += 1;
      this.mustRead = true;
    } else {
      this.handed.push(entry);
    }
    this.wake();
  }

  /** The next batch: the events handed over, or the outbox's oldest (everything committed before the read, handed over or not). */
  private async nextBatch(): Promise<{ batch: OutboxEntry[]; read: boolean }> {
    if (!this.mustRead && this.handsOver) return { batch: this.handed.splice(0), read: false };
    // Reset in the same synchronous step as the read (the SQL runs as it is called): what
    // was handed over until now is committed, so in the read; what comes after, not.
    this.handed = [];
    const overflows = this.overflows;
    const batch = await this.store.unpublishedEvents(this.batchSize);
    // A short batch was all there was: from now on what commits is handed over.
    this.mustRead = batch.length >= this.batchSize || this.overflows !== overflows;
    return { batch, read: true };
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        // What was written before this read is in it: no need to read again for those wakes.
        this.again = false;
        const { batch, read } = await this.nextBatch();
        if (batch.length === 0) break;
        // All at once, not one confirm round trip after another; the broker keeps their
        // order on the channel. One removal for those confirmed (a write per event cost as
        // much as the event's own write); a failed one stays and goes out again later, after
        // some that followed it, which consumers tolerate (see push-events.ts).
        const outcomes = await Promise.allSettled(batch.map((entry) => this.bus.publish(entry.event)));
        const published = batch.filter((_, i) => outcomes[i]!.status === 'fulfilled').map((entry) => entry.seq);
        if (published.length > 0) await this.store.markPublished(published);
        const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        if (failure) throw failure.reason;
        this.failures = 0;
        // A short batch was all there was; a write since then has called wake() again.
        if ((read && batch.length < this.batchSize) || !this.running) break;
      }
      this.failures = 0;
    } catch (err) {
      // What failed is still in the outbox: read it from there.
      this.mustRead = true;
      this.failures += 1;
      this.logger.warn({ err, failures: this.failures }, 'outbox relay could not publish; will retry');
    }
  }

  private schedule(ms: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      // The safety net looks at the outbox itself (another replica's events, any left over).
      this.mustRead = true;
      this.wake();
    }, ms);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
