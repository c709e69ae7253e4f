import { recordFcmSend } from '@formcast/metrics';
import type { Logger } from '@formcast/platform';
import { deviceKeyOf, mergeNotifications, type DeviceNotification } from '../domain/device-notification';
import type { SendOutcome } from '../domain/send-outcome';
import type { DeviceSendGuard } from './device-send-guard';
import { maxSendBatch, type NotificationSender } from './notification-sender';
import { SendSpans, sendTracesHere, type SendTraces } from './send-spans';

interface Waiting {
  notification: DeviceNotification;
  /** Everyone waiting for this device's next send: they all get its outcome. */
  settle: Array<(outcome: SendOutcome) => void>;
  /** Another replica held the device's send right: not asked again before this (ms). */
  notBefore?: number;
  /** When the right was first refused (ms): past `maxClaimWaitMs`, answered `retry`. */
  refusedSince?: number;
  /** While tracing: the trace of each event waiting here, for the send's spans. */
  traces?: SendTraces;
}

export interface NotificationDispatcherOptions {
  /** Messages per `sendEach` (default and most: 500). */
  maxBatch?: number;
  logger?: Logger;
  now?: () => number;
  /** Send rights across replicas (distributed mode); without it, this process alone sends. */
  guard?: DeviceSendGuard;
  /** Pause before asking again for a right another replica holds (default 20 ms). */
  claimRetryMs?: number;
  /** How long a notification waits for a right before it is answered `retry` (default 40 s). */
  maxClaimWaitMs?: number;
}

type Batch = Array<[string, Waiting]>;

/**
 * Between the event handlers and the sender: gathers the notifications handed to it while
 * a turn of the event loop runs into `sendEach` batches of at most 500, without waiting
 * for a timer (under load, what arrives while batches are out goes in the next ones).
 *
 * Per device, at most one message is out at a time, and notifications waiting for the same
 * device merge into one (`mergeNotifications`): the newest badge wins, so an older badge
 * can never overtake a newer one on the way to FCM. With a guard (replicas sharing Redis),
 * a device's right is taken before its message goes out, and the message carries the badge
 * read when it was taken: a device another replica is sending to waits its turn. When FCM
 * asks for a pause (Retry-After), nothing is sent until it has passed.
 */
export class NotificationDispatcher {
  private readonly waiting = new Map<string, Waiting>();
  private readonly sending = new Set<string>();
  private readonly batches = new Set<Promise<void>>();
  private readonly maxBatch: number;
  private readonly now: () => number;
  private readonly claimRetryMs: number;
  private readonly maxClaimWaitMs: number;
  private resumeAt = 0;
  private flushScheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly sender: NotificationSender,
    private readonly options: NotificationDispatcherOptions = {},
  ) {
    this.maxBatch = Math.min(options.maxBatch ?? maxSendBatch, maxSendBatch);
    this.now = options.now ?? Date.now;
    this.claimRetryMs = options.claimRetryMs ?? 20;
    this.maxClaimWaitMs = options.maxClaimWaitMs ?? 40_000;
  }

  /** Resolves with what became of the notification (or of the newer one it merged into); never rejects. */
  dispatch(notification: DeviceNotification): Promise<SendOutcome> {
    if (this.closed) {
      return Promise.resolve({ status: 'retry', code: 'notifier/stopping', message: 'The notifier is stopping' });
    }
    return new Promise((settle) => {
      const key = deviceKeyOf(notification);
      this.enqueue(key, { notification, settle: [settle], traces: sendTracesHere() });
      this.scheduleFlush();
    });
  }

  /** Stops taking notifications; waits for the batches out; what still waits is answered `retry`. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.batches.size > 0) await Promise.allSettled([...this.batches]);
    if (this.timer) clearTimeout(this.timer);
    for (const { settle } of this.waiting.values()) {
      for (const done of settle) done({ status: 'retry', code: 'notifier/stopping', message: 'The notifier stopped before sending' });
    }
    this.waiting.clear();
  }

  /** Waits for the device's next send, merged into what already waits for it. */
  private enqueue(key: string, entry: Waiting): void {
    const pending = this.waiting.get(key);
    if (!pending) {
      this.waiting.set(key, entry);
      return;
    }
    const [older, newer] = entry.refusedSince === undefined ? [pending, entry] : [entry, pending];
    pending.notification = mergeNotifications(older.notification, newer.notification);
    pending.settle.push(...entry.settle);
    if (entry.traces) pending.traces = [...(pending.traces ?? []), ...entry.traces];
    pending.notBefore = entry.notBefore ?? pending.notBefore;
    pending.refusedSince = entry.refusedSince ?? pending.refusedSince;
  }

  private scheduleFlush(delayMs = 0): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    const pause = Math.max(this.resumeAt - this.now(), delayMs);
    const run = () => {
      this.flushScheduled = false;
      this.timer = null;
      this.flush();
    };
    if (pause > 0) this.timer = setTimeout(run, pause);
    else setImmediate(run);
  }

  private flush(): void {
    if (this.now() < this.resumeAt) {
      this.scheduleFlush();
      return;
    }
    const now = this.now();
    let nextTry = Infinity;
    let batch: Batch = [];
    for (const [key, pending] of this.waiting) {
      if (this.sending.has(key)) continue;
      if (pending.notBefore !== undefined && pending.notBefore > now) {
        nextTry = Math.min(nextTry, pending.notBefore);
        continue;
      }
      this.waiting.delete(key);
      this.sending.add(key);
      batch.push([key, pending]);
      if (batch.length === this.maxBatch) {
        this.send(batch);
        batch = [];
      }
    }
    if (batch.length > 0) this.send(batch);
    if (nextTry !== Infinity) this.scheduleFlush(nextTry - now);
  }

  private send(batch: Batch): void {
    const work = this.claim(batch).then(async (taken) => {
      if (taken.length > 0) await this.sendClaimed(taken);
      if (this.waiting.size > 0) this.scheduleFlush();
    });
    const tracked = work.finally(() => this.batches.delete(tracked));
    this.batches.add(tracked);
  }

  /**
   * What of the batch may go out now, each with the badge read when its right was taken;
   * the rest waits for another try, or is answered `retry` when it waited too long or the
   * guard failed.
   */
  private async claim(batch: Batch): Promise<Batch> {
    const { guard } = this.options;
    if (!guard) return batch;
    let badges: Array<number | null>;
    try {
      badges = await guard.claim(batch.map(([, pending]) => pending.notification));
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'could not take the devices\' send rights');
      this.answer(batch, () => ({ status: 'retry', code: 'notifier/send-right-failed', message: String(error) }));
      return [];
    }
    const taken: Batch = [];
    const now = this.now();
    batch.forEach(([key, pending], index) => {
      const badge = badges[index];
      if (badge !== null && badge !== undefined) {
        pending.notification = { ...pending.notification, badge };
        taken.push([key, pending]);
        return;
      }
      this.sending.delete(key);
      const refusedSince = pending.refusedSince ?? now;
      if (now - refusedSince > this.maxClaimWaitMs) {
        for (const settle of pending.settle) {
          settle({ status: 'retry', code: 'notifier/send-right-held', message: 'Another notifier held the device\'s send right too long' });
        }
        return;
      }
      this.enqueue(key, { ...pending, refusedSince, notBefore: now + this.claimRetryMs });
    });
    return taken;
  }

  private answer(batch: Batch, outcomeAt: (index: number) => SendOutcome): void {
    batch.forEach(([key, pending], index) => {
      this.sending.delete(key);
      const outcome = outcomeAt(index);
      recordFcmSend(outcome.status);
      if (outcome.status === 'retry' && outcome.retryAfterMs) {
        this.resumeAt = Math.max(this.resumeAt, this.now() + outcome.retryAfterMs);
      }
      for (const settle of pending.settle) settle(outcome);
    });
  }

  private async sendClaimed(batch: Batch): Promise<void> {
    const spans = SendSpans.open(batch.map(([, pending]) => pending.traces));
    const outcomes = await this.sender
      .sendEach(batch.map(([, pending]) => pending.notification))
      .catch((error: unknown): SendOutcome[] => {
        this.options.logger?.warn({ err: error }, 'notification sender failed');
        return batch.map(() => ({ status: 'retry', code: 'notifier/sender-failed', message: String(error) }));
      });
    // Given back before anyone hears the outcome; should that fail, the rights expire.
    await this.options.guard
      ?.release(batch.map(([, pending]) => pending.notification))
      .catch((error: unknown) => this.options.logger?.warn({ err: error }, 'could not give back the devices\' send rights'));
    const outcomeAt = (index: number): SendOutcome => outcomes[index] ?? { status: 'retry', code: 'notifier/no-outcome', message: 'The sender gave no outcome' };
    spans?.end(outcomeAt);
    this.answer(batch, outcomeAt);
  }
}
