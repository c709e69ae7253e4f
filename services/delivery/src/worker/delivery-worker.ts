import type { Logger } from '@formcast/platform';
import { attemptOutcome } from '../domain/attempt-outcome';
import { selectFairly, type DueCandidate } from '../domain/fair-selection';
import type { ClaimedDelivery, DeliveryStore } from '../store';
import type { AttemptDelivery } from './attempt-delivery';
import { RetryAlarm } from './retry-alarm';
import { WakeSignal } from './wake-signal';

/** The worker's look when nothing woke it (issue 24: it looked every second, idle or not). */
export const deliverySafetyPollMs = 10_000;

export interface DeliveryWorkerOptions {
  /** Attempts under way at once in this worker. */
  concurrency: number;
  /** Attempts under way at once to one destination, across replicas. */
  perDestination: number;
  /** Attempts under way at once for one organization, across replicas. */
  perOrganization: number;
  /** How long a claim holds a delivery: past it, another worker may take it (this one died). */
  leaseMs: number;
  /**
   * How often to look for due deliveries when nothing wakes the worker: a safety net (default
   * 10 s) for leases run out and deliveries of replicas gone. New deliveries wake it, and so
   * does each retry this worker scheduled, when it comes due.
   */
  pollMs?: number;
  /** Epoch ms (tests move it). */
  now?: () => number;
  /**
   * Whether attempts may start (default: always). Until it first says yes, nothing is
   * taken: a service started before its bus connects would fail its dispatches.
   */
  ready?: () => boolean;
  logger: Logger;
}

/**
 * Takes due deliveries from the store, a batch at a time, chosen fairly (see
 * domain/fair-selection.ts), and attempts each: records the attempt, then schedules the
 * next or finishes. An attempt's record may hand its slot the next delivery of its
 * destination (see HandOff), attempted at once, with no pass between. Woken when deliveries
 * are made, when an attempt ends, and when a retry it scheduled comes due; a slow poll is
 * only a safety net (leases run out, retries another process scheduled). The schedule lives
 * in the store, so a restart (or another replica) picks up where this one stopped.
 */
export class DeliveryWorker {
  private readonly pollMs: number;
  private readonly now: () => number;
  private readonly ready: () => boolean;
  private readonly signal = new WakeSignal();
  private loop: Promise<void> | null = null;
  private running = false;
  private readonly underWay = new Set<Promise<void>>();
  /**
   * The last pass claimed every due delivery there was (none held back by a limit, none
   * left past the candidates read). An attempt ending then frees a slot nobody waits for,
   * and wakes no pass: in a steady stream that halves the passes. New deliveries still
   * wake one, the retry alarm each retry this worker scheduled, and the slow poll other
   * replicas' work.
   */
  private tookAllDue = false;
  /** Wakes the worker as each retry it scheduled comes due. */
  private readonly retries: RetryAlarm;

  constructor(
    private readonly store: DeliveryStore,
    private readonly attempt: AttemptDelivery,
    private readonly options: DeliveryWorkerOptions,
  ) {
    this.pollMs = options.pollMs ?? deliverySafetyPollMs;
    this.now = options.now ?? Date.now;
    this.retries = new RetryAlarm(() => this.signal.wake(), this.now);
    let ready = false;
    this.ready = () => (ready ||= options.ready?.() ?? true);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.takeWhileRunning();
  }

  /** Deliveries may be due: look at once (one pass, however many wakes come meanwhile). */
  wake(): void {
    this.signal.wake();
  }

  /** Takes no more; waits for the attempts under way (each ends by its timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.retries.clear();
    this.signal.wake();
    await this.loop;
    await Promise.allSettled([...this.underWay]);
  }

  /** Attempts under way in this worker. */
  get busy(): number {
    return this.underWay.size;
  }

  private async takeWhileRunning(): Promise<void> {
    while (this.running) {
      try {
        if (this.ready()) await this.takeDue();
      } catch (error) {
        this.options.logger.warn({ err: error }, 'could not take due deliveries; will try again');
      }
      await this.signal.wait(this.pollMs);
    }
  }

  /** Claims what is due, fairly, up to the free slots, and starts an attempt for each. */
  private async takeDue(): Promise<void> {
    // Until this pass ends, an attempt ending may free what it leaves: it wakes another.
    this.tookAllDue = false;
    const slots = this.options.concurrency - this.underWay.size;
    if (slots <= 0) return;
    const now = this.now();
    // More candidates than slots, so that destinations at their limit can be passed over.
    const limit = Math.max(4 * slots, 100);
    const candidates = await this.store.queue.dueDeliveries(now, this.options.perDestination, limit);
    if (candidates.length === 0) {
      this.tookAllDue = true;
      return;
    }
    const inFlight = await this.store.queue.inFlight(now);
    const chosen = selectFairly(candidates, inFlight, {
      slots,
      perDestination: this.options.perDestination,
      perOrganization: this.options.perOrganization,
    });
    const claimed = await this.store.queue.claim(
      chosen.map((candidate) => candidate.id),
      now,
      now + this.options.leaseMs,
    );
    for (const delivery of claimed) this.run(delivery);
    this.tookAllDue = claimed.length === candidates.length && candidates.length < limit && !anyDestinationCut(candidates, this.options.perDestination);
    // Slots left and more due than taken (claimed meanwhile by another replica, or over a
    // destination's limit): another pass at once; it finds nothing new when limits hold.
    if (claimed.length > 0 && claimed.length < slots && candidates.length > chosen.length) this.signal.wake();
  }

  /** Holds a slot for the claimed delivery, then for each one handed to it as its attempt is recorded. */
  private run(claimed: ClaimedDelivery): void {
    const work = this.attemptInTurn(claimed).finally(() => {
      this.underWay.delete(work);
      if (!this.tookAllDue) this.signal.wake();
    });
    this.underWay.add(work);
  }

  private async attemptInTurn(claimed: ClaimedDelivery): Promise<void> {
    let next: ClaimedDelivery | null = claimed;
    while (next) next = await this.attemptOnce(next);
  }

  /** Returns the delivery handed to the slot as this attempt was recorded (see HandOff), if any. */
  private async attemptOnce(claimed: ClaimedDelivery): Promise<ClaimedDelivery | null> {
    const { delivery, destination } = claimed;
    const fields = { deliveryId: delivery.id, destinationId: destination.id, orgId: delivery.orgId, submissionId: delivery.submissionId };
    try {
      const { result, attempt } = await this.attempt(claimed);
      const outcome = attemptOutcome(result, delivery.scheduleStep + 1, this.now());
      // Stopping, the slot passes to nothing: what is due waits in the store for the next start.
      const handOff = this.running ? { now: this.now, leaseMs: this.options.leaseMs } : undefined;
      const next = await this.store.queue.recordAttempt({ deliveryId: delivery.id, claimToken: claimed.claimToken }, attempt, outcome, handOff);
      if (outcome.nextAttemptAt !== null && this.running) this.retries.add(outcome.nextAttemptAt);
      const log = outcome.status === 'pending' ? 'info' : outcome.status === 'succeeded' ? 'debug' : 'warn';
      this.options.logger[log](
        { ...fields, status: outcome.status, statusCode: attempt.statusCode, error: attempt.error, durationMs: attempt.durationMs },
        outcome.status === 'succeeded'
          ? 'delivered'
          : outcome.deferred
            ? 'delivery attempt deferred (the bus did not carry it); will retry soon'
            : outcome.status === 'pending'
              ? 'delivery attempt failed; will retry'
              : 'delivery failed',
      );
      return next;
    } catch (error) {
      // The lease runs out and the delivery is attempted again: at least once.
      this.options.logger.error({ ...fields, err: error }, 'could not record a delivery attempt');
      return null;
    }
  }
}

/** Whether the store may have left due deliveries of a destination out (it reads at most `perDestination` of each). */
function anyDestinationCut(candidates: DueCandidate[], perDestination: number): boolean {
  const counts = new Map<number, number>();
  for (const { destinationId } of candidates) {
    const count = (counts.get(destinationId) ?? 0) + 1;
    if (count >= perDestination) return true;
    counts.set(destinationId, count);
  }
  return false;
}
