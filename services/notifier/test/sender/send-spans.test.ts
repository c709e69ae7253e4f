import { pushEvents } from '@formcast/contracts';
import { openSpan, recordSpansInMemory, SpanKind, type SpansInMemory } from '@formcast/tracing';
import type { DeviceNotification } from '../../src/domain/device-notification';
import type { SendOutcome } from '../../src/domain/send-outcome';
import { NotificationDispatcher } from '../../src/sender/notification-dispatcher';
import type { NotificationSender } from '../../src/sender/notification-sender';

/** Sends to device 1, FCM refuses device 2. */
const sender: NotificationSender = {
  description: 'answering by device',
  sendEach: async (batch) =>
    batch.map((n): SendOutcome => (n.deviceId === 1 ? { status: 'sent' } : { status: 'rejected', code: 'messaging/invalid-argument', message: 'bad token' })),
  close: async () => undefined,
};

function notification(deviceId: number, oneshotId: number, badge: number): DeviceNotification {
  const oneshot = { id: oneshotId, name: 'Form', description: '', namespace: `http://formcast.local/xforms/${oneshotId}` };
  return { orgId: 1, deviceId, deviceIdentifier: `Android_${deviceId}`, pushToken: `token-${deviceId}`, badge, event: pushEvents.oneshotCreated, oneshot, announces: oneshot };
}

describe('NotificationDispatcher send spans', () => {
  let recorded: SpansInMemory;
  beforeAll(() => {
    recorded = recordSpansInMemory();
  });
  afterAll(() => recorded.stop());

  it('gives each event’s trace its own send span, merged notifications and refused ones included', async () => {
    const dispatcher = new NotificationDispatcher(sender);
    const handlers = [openSpan('process a', SpanKind.CONSUMER)!, openSpan('process b', SpanKind.CONSUMER)!, openSpan('process c', SpanKind.CONSUMER)!];
    // a and b are for device 1 in the same turn: merged into one message.
    const outcomes = await Promise.all([
      handlers[0]!.run(() => dispatcher.dispatch(notification(1, 10, 1))),
      handlers[1]!.run(() => dispatcher.dispatch(notification(1, 11, 2))),
      handlers[2]!.run(() => dispatcher.dispatch(notification(2, 12, 1))),
      dispatcher.dispatch(notification(3, 13, 1)),
    ]);
    for (const handler of handlers) handler.end();
    await dispatcher.close();

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['sent', 'sent', 'rejected', 'rejected']);
    const sends = recorded.spans().filter((span) => span.name === 'fcm send');
    const handlerSpans = recorded.spans().filter((span) => span.name.startsWith('process '));
    expect(sends).toHaveLength(3);
    const byParent = new Map(sends.map((span) => [span.parentSpanContext?.spanId, span]));
    const [a, b, c] = ['process a', 'process b', 'process c'].map((name) => byParent.get(handlerSpans.find((span) => span.name === name)!.spanContext().spanId));
    expect(a?.attributes).toMatchObject({ 'formcast.fcm.outcome': 'sent', 'formcast.fcm.batch_size': 3 });
    expect(b?.spanContext().traceId).toBe(handlerSpans.find((span) => span.name === 'process b')!.spanContext().traceId);
    expect(c?.attributes).toMatchObject({ 'formcast.fcm.outcome': 'rejected', 'formcast.fcm.code': 'messaging/invalid-argument' });
    expect(c?.status).toMatchObject({ code: 2 });
  });
});
