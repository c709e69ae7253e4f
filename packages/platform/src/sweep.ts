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
}
