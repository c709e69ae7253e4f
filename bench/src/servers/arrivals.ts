/**
 * What the webhook and SMTP receivers note, and answer over IPC: the first time each tag came
 * (epoch ms to the microsecond, `performance`, as the bench notes when it sent), and a sample
 * of what came. IPC: `{count: <prefix>}` answers `{counted: <tags that start with it>}`,
 * `{arrivals: <prefix>}` answers `{arrivals: [[tag, epoch ms], …]}` of those tags,
 * `{sample: true}` answers `{sample: <what came, as text>}`; `{clear: true}` forgets.
 */
export class Arrivals {
  private readonly first = new Map<string, number>();
  private sample: string | null = null;

  /** A tag came at `at`: noted if it is its first; `sample` kept if it is the first of all. */
  note(tag: string, at: number, sample: () => string): void {
    if (!this.first.has(tag)) this.first.set(tag, at);
    this.sample ??= sample();
  }

  /** Answers the bench's questions (see the class) from now on. */
  answerOverIpc(): void {
    const tagged = (prefix: string) => [...this.first].filter(([tag]) => tag.startsWith(prefix));
    process.on('message', (message: { count?: string; arrivals?: string; sample?: boolean; clear?: boolean }) => {
      if (message.clear) {
        this.first.clear();
        process.send?.({ cleared: true });
      }
      if (message.count !== undefined) process.send?.({ counted: tagged(message.count).length });
      if (message.arrivals !== undefined) process.send?.({ arrivals: tagged(message.arrivals) });
      if (message.sample) process.send?.({ sample: this.sample });
    });
  }
}
