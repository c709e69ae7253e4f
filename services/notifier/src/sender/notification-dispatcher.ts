import type { Logger } from '@formcast/platform';
import { deviceKeyOf, mergeNotifications, type DeviceNotification } from '../domain/device-notification';
import type { SendOutcome } from '../domain/send-outcome';
import { maxSendBatch, type NotificationSender } from './notification-sender';

interface Waiting {
  notification: DeviceNotification;
  /** Everyone waiting for this device's next send: they all get its outcome. */
  settle: Array<(outcome: SendOutcome) => void>;
}

export interface NotificationDispatcherOptions {
  /** Messages per `sendEach` (default and most: 500). */
  maxBatch?: number;
  logger?: Logger;
  now?: () => number;
}

/**
 * Between the event handlers and the sender: gathers the notifications handed to it while
 * a turn of the event loop runs into `sendEach` batches of at most 500, without waiting
 * for a timer (under load, what arrives while batches are out goes in the next ones).
 *
 * Per device, at most one message is out at a time, and notifications waiting for the same
 * device merge into one (`mergeNotifications`): the newest badge wins, so an older badge
 * can never overtake a newer one on the way to FCM. When FCM asks for a pause (Retry-After),
 * nothing is sent until it has passed.
 */
export class NotificationDispatcher {
  private readonly waiting = new Map<string, Waiting>();
  private readonly sending = new Set<string>();
  private readonly batches = new Set<Promise<void>>();
  private readonly maxBatch: number;
  private readonly now: () => number;
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
  }

  /** Resolves with what became of the notification (or of the newer one it merged into); never rejects. */
  dispatch(notification: DeviceNotification): Promise<SendOutcome> {
    if (this.closed) {
      return Promise.resolve({ status: 'retry', code: 'notifier/stopping', message: 'The notifier is stopping' });
    }
    return new Promise((settle) => {
      const key = deviceKeyOf(notification);
      const pending = this.waiting.get(key);
      if (pending) {
        pending.notification = mergeNotifications(pending.notification, notification);
        pending.settle.push(settle);
      } else {
        this.waiting.set(key, { notification, settle: [settle] });
      }
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

  private scheduleFlush(): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    const pause = this.resumeAt - this.now();
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
    let batch: Array<[string, Waiting]> = [];
    for (const [key, pending] of this.waiting) {
      if (this.sending.has(key)) continue;
      this.waiting.delete(key);
      this.sending.add(key);
      batch.push([key, pending]);
      if (batch.length === this.maxBatch) {
        this.send(batch);
        batch = [];
      }
    }
    if (batch.length > 0) this.send(batch);
  }

  private send(batch: Array<[string, Waiting]>): void {
    const work = this.sender
      .sendEach(batch.map(([, pending]) => pending.notification))
      .catch((error: unknown): SendOutcome[] => {
        this.options.logger?.warn({ err: error }, 'notification sender failed');
        return batch.map(() => ({ status: 'retry', code: 'notifier/sender-failed', message: String(error) }));
      })
      .then((outcomes) => {
        batch.forEach(([key, pending], index) => {
          this.sending.delete(key);
          const outcome: SendOutcome = outcomes[index] ?? { status: 'retry', code: 'notifier/no-outcome', message: 'The sender gave no outcome' };
          if (outcome.status === 'retry' && outcome.retryAfterMs) {
            this.resumeAt = Math.max(this.resumeAt, this.now() + outcome.retryAfterMs);
          }
          for (const settle of pending.settle) settle(outcome);
        });
        if (this.waiting.size > 0) this.scheduleFlush();
      });
    const tracked = work.finally(() => this.batches.delete(tracked));
    this.batches.add(tracked);
  }
}
