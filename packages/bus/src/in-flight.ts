/** Tracks running work so a graceful stop can wait for it. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const forget = () => this.running.delete(work);
    work.then(forget, forget);
    return work;
  }

  get size(): number {
    return this.running.size;
  }

  /** Resolves once nothing is running, including work started while waiting. */
  async settled(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.allSettled([...this.running]);
    }
  }
}
