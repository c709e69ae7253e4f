import { Sweep, type Logger } from '@formcast/platform';
import type { DeliveryStore } from '../store';

export interface RetentionSweepOptions {
  /** How long an ended delivery is kept after it ended. */
  retentionMs: number;
  /** Time between two sweeps. */
  intervalMs: number;
  /** Deliveries removed per transaction (default 500). */
  batchSize?: number;
  /** Epoch ms (tests move it). */
  now?: () => number;
  logger: Logger;
}

const day = 24 * 60 * 60 * 1000;

/**
 * Removes deliveries that ended (delivered, or given up) more than the retention ago, with
 * their attempts, on a timer in the worker's process: a batch per transaction, the event
 * loop free between two, until a batch comes back short. Replicas may sweep at once: each
 * batch deletes only what is still ended and old, so they only share the work.
 */
export class RetentionSweep extends Sweep {
  private readonly batchSize: number;
  private readonly now: () => number;

  constructor(
    private readonly store: DeliveryStore,
    private readonly options: RetentionSweepOptions,
  ) {
    super(options.intervalMs, (error) => options.logger.warn({ err: error }, 'could not remove old deliveries; will try at the next sweep'));
    this.batchSize = options.batchSize ?? 500;
    this.now = options.now ?? Date.now;
  }

  /** One sweep now (a stop ends it after its current batch); resolves with how many deliveries it removed. */
  async sweepOnce(): Promise<number> {
    const endedBefore = this.now() - this.options.retentionMs;
    let removed = 0;
    for (;;) {
      const batch = await this.store.queue.sweepEnded(endedBefore, this.batchSize);
      removed += batch;
      if (batch < this.batchSize || this.stopped) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (removed > 0) {
      this.options.logger.info({ removed, retentionDays: this.options.retentionMs / day }, 'removed deliveries ended before the retention');
    }
    return removed;
  }
}
