import { RepeatingTask } from './repeating-task';

/**
 * A sweep on a timer (delivery's retention and deleted forms, push's deleted devices): the
 * first after one interval, then one every interval, each after the last ended. `stopped`
 * tells a sweep under way to end early.
 */
export abstract class Sweep {
  private readonly task: RepeatingTask;
  protected stopped = false;

  constructor(intervalMs: number, failed: (error: unknown) => void) {
    this.task = new RepeatingTask(() => this.sweepOnce(), { intervalMs, failed });
  }

  start(): void {
    this.stopped = false;
    this.task.start();
  }

  /** No more sweeps; waits for the one under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
  }

  /** One sweep now; resolves with how many records it removed. */
  abstract sweepOnce(): Promise<number>;

  /**
   * Every item of a keyset walk: `page` gives those after the last one it gave (all from the
   * start for `undefined`), at most `pageSize`; an empty page is the end, and so is a stop.
   */
  protected async *walk<T>(page: (after: T | undefined, limit: number) => Promise<T[]>, pageSize: number): AsyncGenerator<T> {
    let after: T | undefined;
    while (!this.stopped) {
      const items = await page(after, pageSize);
      if (items.length === 0) return;
      for (const item of items) {
        if (this.stopped) return;
        yield item;
      }
      after = items[items.length - 1];
    }
  }
}
