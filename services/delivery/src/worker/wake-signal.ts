/**
 * What a loop sleeps on: `wait(ms)` resolves after `ms`, or when `wake()` is called, or has
 * been since the last wait ended (so a wake during a pass is never lost). A wait ends on the
 * event-loop turn after the wake: every wake of one turn (attempts recorded in one group
 * commit, deliveries of one batch) makes one pass, not one each.
 */
export class WakeSignal {
  private woken = false;
  private release: (() => void) | null = null;
  private releasing = false;

  wake(): void {
    this.woken = true;
    if (this.release && !this.releasing) {
      this.releasing = true;
      setImmediate(this.release);
    }
  }

  async wait(ms: number): Promise<void> {
    if (!this.woken) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        this.release = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.release = null;
      this.releasing = false;
    }
    this.woken = false;
  }
}
