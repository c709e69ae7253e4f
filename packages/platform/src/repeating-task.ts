/**
 * A task run again and again in the background: each run `intervalMs` after the last one
 * ended (never two at once), until stopped. A run that fails goes to `failed`, and the next
 * comes as usual. The timer does not keep the process alive.
 */
export class RepeatingTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private started = false;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly options: { intervalMs: number; failed: (error: unknown) => void },
  ) {}

  /** The first run after `firstAfterMs` (one interval unless given); nothing if started already. */
  start(firstAfterMs = this.options.intervalMs): void {
    if (this.started) return;
    this.started = true;
    this.schedule(firstAfterMs);
  }

  /** No more runs; waits for the one under way. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (!this.started) return;
    this.timer = setTimeout(() => {
      this.running = this.run()
        .then(() => undefined, this.options.failed)
        .finally(() => {
          this.running = null;
          this.schedule(this.options.intervalMs);
        });
    }, ms);
    this.timer.unref();
  }
}
