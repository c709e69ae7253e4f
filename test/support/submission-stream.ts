import type { TestDevice } from './fixtures';

/** A pushed oneshot the stream submits, with the text it answers `note` with. */
export interface OneshotToSubmit {
  device: TestDevice;
  oneshotId: number;
  tag: string;
}

/** How one submission request was answered. */
export type SubmitAnswer = number | 'no answer' | `failed: ${string}`;

export interface SubmitOutcome {
  tag: string;
  answer: SubmitAnswer;
  /** Epoch ms. */
  answeredAt: number;
}

/**
 * Submits each oneshot (`POST /device/oneshots/<id>/submission`, answering `note` with its
 * tag) from a few concurrent clients, as devices do: a submission answered 503 or 504, or
 * not at all, is sent again until it is stored (201), or found stored already (409: the
 * first try had gone through). Every request's answer is kept.
 */
export class SubmissionStream {
  readonly outcomes: SubmitOutcome[] = [];
  /** Tags submitted for good: answered 201, or 409 after a try that got no clear answer. */
  readonly submitted = new Set<string>();
  private readonly queue: OneshotToSubmit[];
  private readonly workers: Promise<void>[];

  constructor(
    private readonly baseUrl: string,
    oneshots: OneshotToSubmit[],
    options: { concurrency?: number; answerWithinMs: number; paceMs?: number },
  ) {
    this.queue = [...oneshots];
    const pace = options.paceMs ?? 20;
    this.workers = Array.from({ length: options.concurrency ?? 3 }, () => this.work(options.answerWithinMs, pace));
  }

  /** How many were stored (answered 201) after `since` (epoch ms). */
  acceptedSince(since = 0): number {
    return this.answersSince(since, 201);
  }

  answersSince(since: number, answer: SubmitAnswer): number {
    return this.outcomes.filter((o) => o.answer === answer && o.answeredAt >= since).length;
  }

  /** Resolves with every outcome once each oneshot is submitted. */
  async finished(): Promise<SubmitOutcome[]> {
    await Promise.all(this.workers);
    return this.outcomes;
  }

  private async work(answerWithinMs: number, paceMs: number): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      for (let tries = 1; ; tries += 1) {
        const started = Date.now();
        const answer = await this.submit(next, answerWithinMs);
        this.outcomes.push({ tag: next.tag, answer, answeredAt: Date.now() });
        // Load shaping, not synchronisation: while something is down answers come at once.
        const rest = paceMs - (Date.now() - started);
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
        if (answer === 201 || (answer === 409 && tries > 1)) {
          this.submitted.add(next.tag);
          break;
        }
        if (answer !== 503 && answer !== 504 && answer !== 'no answer') break;
      }
    }
  }

  private async submit({ device, oneshotId, tag }: OneshotToSubmit, answerWithinMs: number): Promise<SubmitAnswer> {
    try {
      const res = await fetch(`${this.baseUrl}/device/oneshots/${oneshotId}/submission`, {
        method: 'POST',
        headers: { authorization: `Bearer ${device.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { note: { value: tag } } }),
        signal: AbortSignal.timeout(answerWithinMs),
      });
      await res.arrayBuffer();
      return res.status;
    } catch (error) {
      return (error as Error).name === 'TimeoutError' ? 'no answer' : `failed: ${(error as Error).message}`;
    }
  }
}
