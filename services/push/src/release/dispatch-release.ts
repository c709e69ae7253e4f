import { randomUUID } from 'node:crypto';
import { pushEvents } from '@formcast/contracts';
import { RepeatingTask, type Logger } from '@formcast/platform';
import { inSpan, SpanKind } from '@formcast/tracing';
import { devicePushToken } from '../directory-cache/device-push-token';
import type { DirectoryLookup } from '../directory-cache/directory-lookup';
import { oneshotEvent } from '../domain/oneshot-events';
import { releasedOneshots } from '../domain/oneshot-lifecycle';
import type { DispatchSummary, Oneshot } from '../domain/records';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import type { PushStore } from '../store/push-store';

export interface DispatchReleaseOptions {
  /** How often to look for due dispatches (PUSH_RELEASE_INTERVAL_MS). */
  intervalMs: number;
  /** Dispatches released in one transaction at most. */
  batchSize?: number;
  /** The time; the system clock unless given (tests give their own). */
  clock?: () => Date;
}

const deviceKey = (d: { orgId: number; deviceId: number }) => `${d.orgId}:${d.deviceId}`;

/**
 * A release batch in a `push.release` span, the root of a trace of its own: a batch releases
 * dispatches of many requests, made long before (their traces ended then), and a dispatch
 * created for later keeps no trace context (its event is written only now; keeping the
 * create's context would take a column, and a migration, in both stores). The lookups, the
 * store write and each released event's publish, consumer and send are its descendants.
 */
function releaseTraced<T>(due: number, requestId: string, release: () => Promise<T>): Promise<T> {
  return inSpan('push.release', SpanKind.INTERNAL, release, { remote: undefined }, { 'formcast.release.due': due, 'formcast.request_id': requestId });
}

/**
 * Releases the dispatches scheduled for later once their time has come: each one's release
 * and its `created` event (badge, notification) are one transaction of the store, and only
 * what that transaction finds still due is released, so a dispatch is released once even
 * with several replicas doing this at the same moment, and a crash leaves it released with
 * its event or not at all (the next look, here or after the restart, takes it).
 */
export class DispatchRelease {
  private readonly batchSize: number;
  private readonly task: RepeatingTask;

  constructor(
    private readonly store: PushStore,
    private readonly directory: DirectoryLookup,
    private readonly eventsWritten: () => void,
    private readonly logger: Logger,
    private readonly options: DispatchReleaseOptions,
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.task = new RepeatingTask(() => this.releaseDue(), {
      intervalMs: options.intervalMs,
      failed: (err) => this.logger.warn({ err }, 'could not release due dispatches; will try again'),
    });
  }

  /** A first look at once, then one every interval (each after the last ended). */
  start(): void {
    this.task.start(0);
  }

  /** Stops after the look in flight. */
  stop(): Promise<void> {
    return this.task.stop();
  }

  /** Releases every dispatch due now, batch after batch; how many it released. */
  async releaseDue(): Promise<number> {
    let released = 0;
    for (;;) {
      const now = (this.options.clock?.() ?? new Date()).toISOString();
      const due = await this.store.listDue(now, this.batchSize);
      if (due.length === 0) return released;
      const requestId = `release-${randomUUID()}`;
      // Each batch in a trace of its own, started here (see releaseTraced): its events carry it to the notifier's send.
      const batch = await releaseTraced(due.length, requestId, async () => {
        const pushTokens = await this.pushTokens(due, requestId);
        return tracedStoreWrite('release', (carryTrace) =>
          this.store.release(
            due.map((d) => d.id),
            (loaded) => releasedOneshots(loaded, now),
            carryTrace((oneshot: Oneshot) => oneshotEvent(pushEvents.oneshotCreated, pushTokens.get(deviceKey(oneshot)) ?? null, requestId)(oneshot)),
          ),
        );
      });
      released += batch.length;
      if (batch.length > 0) this.eventsWritten();
      if (due.length < this.batchSize) return released;
    }
  }

  /** Each device's push token, read before the transaction (the directory is another service). */
  private async pushTokens(due: DispatchSummary[], requestId: string): Promise<Map<string, string | null>> {
    const tokens = new Map<string, string | null>();
    for (const d of due) {
      const key = deviceKey(d);
      if (!tokens.has(key)) tokens.set(key, await devicePushToken(this.directory, d.orgId, d.deviceId, requestId));
    }
    return tokens;
  }
}
