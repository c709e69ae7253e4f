import { randomUUID } from 'node:crypto';
import { pushEvents } from '@formcast/contracts';
import type { Logger } from '@formcast/platform';
import { inSpan, SpanKind } from '@formcast/tracing';
import { devicePushToken } from '../directory-cache/device-push-token';
import type { DirectoryLookup } from '../directory-cache/directory-lookup';
import { oneshotEvent } from '../domain/oneshot-events';
import { releasedOneshots } from '../domain/oneshot-lifecycle';
import type { DispatchSummary, Oneshot } from '../domain/records';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import type { PushStore } from '../store/push-store';

export interface DispatchReleaseOptions {
  /**
   * How soon a look follows a write or a failed look, and, on a clock of the tests' own, how
   * often it looks while a dispatch waits (PUSH_RELEASE_INTERVAL_MS).
   */
  intervalMs: number;
  /** How often it looks while it knows of no dispatch waiting: a safety net for those another replica scheduled (30 s). */
  safetyNetMs?: number;
  /** Dispatches released in one transaction at most. */
  batchSize?: number;
  /** The time; the system clock unless given (tests give their own). */
  clock?: () => Date;
}

/** While no dispatch waits, a look this often finds one another replica (or a process killed before its release) left. */
export const releaseSafetyNetMs = 30_000;
/** Later than any scheduled time: listDue up to it gives the next dispatch waiting, due or not. */
const endOfTime = '9999-12-31T23:59:59.999Z';

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
 *
 * No look on a fixed beat (issue 24: a look a second was an idle process's main wake-up):
 * after each look, the next is timed for the earliest dispatch still waiting; a write here
 * (`wake()`: a dispatch created or moved) brings a look within one interval; with nothing
 * waiting, a look every 30 s finds what another replica scheduled. A failed look is tried
 * again after one interval. On a clock of the tests' own (which jumps), it looks every
 * interval while a dispatch waits.
 */
export class DispatchRelease {
  private readonly batchSize: number;
  private readonly safetyNetMs: number;
  private timer: NodeJS.Timeout | null = null;
  /** When the armed timer fires (ms since the epoch); Infinity while none is. */
  private lookAt = Infinity;
  private running: Promise<void> | null = null;
  private started = false;
  /** A write came while a look ran: the next comes within an interval, whatever that look found. */
  private wokenWhileLooking = false;

  constructor(
    private readonly store: PushStore,
    private readonly directory: DirectoryLookup,
    private readonly eventsWritten: () => void,
    private readonly logger: Logger,
    private readonly options: DispatchReleaseOptions,
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.safetyNetMs = options.safetyNetMs ?? releaseSafetyNetMs;
  }

  /** A first look at once, then each as the dispatches waiting, the writes and the safety net call for (never two at once). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.lookIn(0);
  }

  /** Stops after the look in flight. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lookAt = Infinity;
    await this.running;
  }

  /** A write that may have scheduled a dispatch (the service calls it after every write): a look within one interval. */
  wake(): void {
    if (!this.started) return;
    if (this.running) this.wokenWhileLooking = true;
    else if (this.lookAt > Date.now() + this.options.intervalMs) this.lookIn(this.options.intervalMs);
  }

  private lookIn(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.lookAt = Date.now() + ms;
    this.timer = setTimeout(() => this.look(), ms);
    this.timer.unref();
  }

  private look(): void {
    this.timer = null;
    this.lookAt = Infinity;
    this.wokenWhileLooking = false;
    this.running = (async () => {
      let nextInMs = this.options.intervalMs;
      try {
        await this.releaseDue();
        nextInMs = await this.nextLookInMs();
      } catch (err) {
        this.logger.warn({ err }, 'could not release due dispatches; will try again');
      }
      this.running = null;
      if (this.wokenWhileLooking) nextInMs = Math.min(nextInMs, this.options.intervalMs);
      if (this.started) this.lookIn(nextInMs);
    })();
  }

  /** When to look next: at the earliest dispatch waiting (within the safety net), or at the safety net with none. */
  private async nextLookInMs(): Promise<number> {
    const [next] = await this.store.listDue(endOfTime, 1);
    if (!next?.scheduledAt) return this.safetyNetMs;
    if (this.options.clock) return this.options.intervalMs;
    return Math.min(this.safetyNetMs, Math.max(10, Date.parse(next.scheduledAt) - Date.now()));
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
