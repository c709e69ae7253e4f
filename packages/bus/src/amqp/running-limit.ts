/** At most `size` pieces of work run at once; more wait, first come first served. */
export class RunningLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running += 1;
    // The slot passes straight from the piece that ends to the one that waited longest.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
