import { pushEvents, type PushEventType } from '@formcast/contracts';
import { parseExposition, renderMetrics, sampleValue } from '@formcast/metrics';
import { waitFor } from '@formcast/testing';
import type { DeviceNotification } from '../../src/domain/device-notification';
import type { SendOutcome } from '../../src/domain/send-outcome';
import { NotificationDispatcher } from '../../src/sender/notification-dispatcher';
import type { NotificationSender } from '../../src/sender/notification-sender';

/** A sender that records each call and answers as the test decides (by default: all sent). */
class RecordingSender implements NotificationSender {
  readonly description = 'recording';
  readonly calls: DeviceNotification[][] = [];
  answer: (batch: DeviceNotification[]) => Promise<SendOutcome[]> = async (batch) => batch.map(() => ({ status: 'sent' }));

  sendEach(batch: DeviceNotification[]): Promise<SendOutcome[]> {
    this.calls.push(batch);
    return this.answer(batch);
  }

  async close(): Promise<void> {}
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function oneshot(id: number, name = `Form ${id}`) {
  return { id, name, description: '', namespace: `http://formcast.local/xforms/${id}` };
}

function notification(deviceId: number, event: PushEventType, oneshotId: number, badge: number, extra: Partial<DeviceNotification> = {}): DeviceNotification {
  const summary = oneshot(oneshotId);
  return {
    orgId: 1,
    deviceId,
    deviceIdentifier: `Android_${deviceId}`,
    pushToken: `token-${deviceId}`,
    badge,
    event,
    oneshot: summary,
    announces: event === pushEvents.oneshotCreated ? summary : null,
    ...extra,
  };
}

describe('NotificationDispatcher', () => {
  let sender: RecordingSender;
  let dispatcher: NotificationDispatcher;

  beforeEach(() => {
    sender = new RecordingSender();
    dispatcher = new NotificationDispatcher(sender);
  });
  afterEach(() => dispatcher.close());

  it('sends what arrives in one turn together, in batches of at most 500', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 1200 }, (_, i) => dispatcher.dispatch(notification(i + 1, pushEvents.oneshotCreated, i + 1, 1))),
    );
    expect(sender.calls.map((batch) => batch.length)).toEqual([500, 500, 200]);
    expect(new Set(sender.calls.flat().map((n) => n.deviceId)).size).toBe(1200);
    expect(outcomes.every((o) => o.status === 'sent')).toBe(true);
  });

  it('counts each message sent by its outcome in the metrics', async () => {
    const sends = async (outcome: string) => sampleValue(parseExposition((await renderMetrics()).body), 'formcast_fcm_sends_total', { outcome });
    const before = { sent: await sends('sent'), rejected: await sends('rejected'), retry: await sends('retry') };
    sender.answer = async (batch) =>
      batch.map((n): SendOutcome =>
        n.deviceId === 1 ? { status: 'sent' } : n.deviceId === 2 ? { status: 'rejected', code: 'messaging/invalid-argument', message: 'bad' } : { status: 'retry', code: 'messaging/internal-error', message: 'later' },
      );
    await Promise.all([1, 2, 3, 4].map((device) => dispatcher.dispatch(notification(device, pushEvents.oneshotUpdated, device, 1))));
    expect(await sends('sent')).toBe(before.sent + 1);
    expect(await sends('rejected')).toBe(before.rejected + 1);
    expect(await sends('retry')).toBe(before.retry + 2);
  });

  it('merges what waits for one device into one message with the newest badge, keeping a live announcement', async () => {
    const outcomes = await Promise.all([
      dispatcher.dispatch(notification(7, pushEvents.oneshotCreated, 1, 1)),
      dispatcher.dispatch(notification(7, pushEvents.oneshotCreated, 2, 2)),
      dispatcher.dispatch(notification(7, pushEvents.oneshotCompleted, 9, 1)),
      dispatcher.dispatch(notification(8, pushEvents.oneshotRevoked, 3, 0)),
    ]);
    expect(sender.calls).toHaveLength(1);
    const [forSeven, forEight] = sender.calls[0]!;
    expect(forSeven).toMatchObject({ deviceId: 7, badge: 1, event: pushEvents.oneshotCompleted, announces: oneshot(2) });
    expect(forEight).toMatchObject({ deviceId: 8, badge: 0, announces: null });
    expect(outcomes).toEqual([{ status: 'sent' }, { status: 'sent' }, { status: 'sent' }, { status: 'sent' }]);
  });

  it('drops an announcement whose oneshot ended while it waited, and shows an update of it', async () => {
    await Promise.all([
      dispatcher.dispatch(notification(7, pushEvents.oneshotCreated, 1, 1)),
      dispatcher.dispatch(notification(7, pushEvents.oneshotRevoked, 1, 0)),
      dispatcher.dispatch(notification(8, pushEvents.oneshotCreated, 2, 1)),
      dispatcher.dispatch(notification(8, pushEvents.oneshotUpdated, 2, 1, { oneshot: oneshot(2, 'Renamed') })),
    ]);
    const [forSeven, forEight] = sender.calls[0]!;
    expect(forSeven).toMatchObject({ badge: 0, announces: null });
    expect(forEight).toMatchObject({ badge: 1, announces: oneshot(2, 'Renamed') });
  });

  it('never has two messages out for one device: the next waits for the first to be answered', async () => {
    const first = deferred<SendOutcome[]>();
    sender.answer = () => first.promise;
    const firstOutcome = dispatcher.dispatch(notification(7, pushEvents.oneshotCreated, 1, 1));
    await waitFor(() => sender.calls.length === 1);

    sender.answer = async (batch) => batch.map(() => ({ status: 'sent' }));
    const second = dispatcher.dispatch(notification(7, pushEvents.oneshotCreated, 2, 2));
    const other = dispatcher.dispatch(notification(8, pushEvents.oneshotCreated, 3, 1));
    await other;
    expect(sender.calls.map((batch) => batch.map((n) => n.deviceId))).toEqual([[7], [8]]);

    first.resolve([{ status: 'sent' }]);
    await expect(firstOutcome).resolves.toEqual({ status: 'sent' });
    await expect(second).resolves.toEqual({ status: 'sent' });
    expect(sender.calls.map((batch) => batch.map((n) => [n.deviceId, n.badge]))).toEqual([[[7, 1]], [[8, 1]], [[7, 2]]]);
  });

  it('sends nothing until the Retry-After of a refused message has passed', async () => {
    sender.answer = async (batch) => batch.map(() => ({ status: 'retry', code: 'messaging/message-rate-exceeded', message: 'slow down', retryAfterMs: 300 }));
    const refused = await dispatcher.dispatch(notification(7, pushEvents.oneshotCreated, 1, 1));
    const refusedAt = Date.now();
    expect(refused).toMatchObject({ status: 'retry', retryAfterMs: 300 });

    sender.answer = async (batch) => batch.map(() => ({ status: 'sent' }));
    await expect(dispatcher.dispatch(notification(8, pushEvents.oneshotCreated, 2, 1))).resolves.toEqual({ status: 'sent' });
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(290);
  });

  it('answers retry for every message when the sender itself fails', async () => {
    sender.answer = () => Promise.reject(new Error('boom'));
    await expect(dispatcher.dispatch(notification(7, pushEvents.oneshotCreated, 1, 1))).resolves.toMatchObject({
      status: 'retry',
      code: 'notifier/sender-failed',
    });
  });

  it('answers retry once closed, after the batches out are answered', async () => {
    const out = deferred<SendOutcome[]>();
    sender.answer = () => out.promise;
    const inFlight = dispatcher.dispatch(notification(7, pushEvents.oneshotCreated, 1, 1));
    await waitFor(() => sender.calls.length === 1);
    const closing = dispatcher.close();
    await expect(dispatcher.dispatch(notification(8, pushEvents.oneshotCreated, 2, 1))).resolves.toMatchObject({
      status: 'retry',
      code: 'notifier/stopping',
    });
    out.resolve([{ status: 'sent' }]);
    await closing;
    await expect(inFlight).resolves.toEqual({ status: 'sent' });
    expect(sender.calls).toHaveLength(1);
  });
});
