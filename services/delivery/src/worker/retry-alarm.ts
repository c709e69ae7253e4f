/**
 * The times retries come due, as the worker that scheduled them knows them: `ring` is called
 * once at each (times that fall together ring once), on the system clock, `now` telling how
 * far off each is. Kept to `capacity` times (the earliest): past that, a worker's slow poll
 * finds the rest, as it finds the retries another process scheduled.
 */
export class RetryAlarm {
  /** Epoch ms, earliest first. */
  private readonly times: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private settingFor: number | null = null;

  constructor(
    private readonly ring: () => void,
    private readonly now: () => number,
    private readonly capacity = 10_000,
  ) {}

  /** A retry comes due at `at` (epoch ms). */
  add(at: number): void {
    const times = this.times;
    let low = 0;
    let high = times.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (times[middle]! <= at) low = middle + 1;
      else high = middle;
    }
    if (low >= this.capacity) return;
    times.splice(low, 0, at);
    if (times.length > this.capacity) times.pop();
    this.set();
  }

  /** Rings no more. */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.settingFor = null;
    this.times.length = 0;
  }

  /** Times waited for (for tests). */
  get pending(): number {
    return this.times.length;
  }

  private set(): void {
    const next = this.times[0];
    if (next === undefined || next === this.settingFor) return;
    if (this.timer) clearTimeout(this.timer);
    this.settingFor = next;
    this.timer = setTimeout(() => this.fire(), Math.max(0, next - this.now()));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    this.settingFor = null;
    // Timers may fire a little early by the clock: then the earliest time (and every time
    // equal to it) still counts as come, so times that fall together ring once.
    const now = Math.max(this.now(), this.times[0] ?? 0);
    let due = 0;
    while (due < this.times.length && this.times[due]! <= now) due += 1;
    this.times.splice(0, due);
    this.ring();
    this.set();
  }
}
