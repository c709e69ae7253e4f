import { pushEvents } from '@formcast/contracts';
import type { DeviceNotification, OneshotSummary } from '../../src/domain/device-notification';
import { fcmMessage } from '../../src/domain/fcm-message';
import type { SendOutcome } from '../../src/domain/send-outcome';
import { maxSendBatch, type NotificationSender } from '../../src/sender/notification-sender';

/** One message as the sender handed it on (an FCM request, a log line), in the words of the FCM message. */
export interface HandedOnMessage {
  data: Record<string, string>;
  apnsBadge: number;
  /** The visible notification, for an announcement. */
  alert: { title: string; body?: string } | undefined;
}

/** How the delivery service (FCM) answers for one token. */
export type DeliveryFailure = 'unregistered' | 'invalid' | 'server-error';

/** A sender, with what it handed on and, when it hears back, the other side of it. */
export interface SenderWorld {
  readonly sender: NotificationSender;
  /** Every message handed on so far, in any order (FCM takes a batch's messages side by side). */
  handedOn(): HandedOnMessage[];
  /**
   * The delivery service, for a sender that hears what became of each message: it answers
   * for a token as FCM does, or cannot be reached at all. Null for a sender that hears
   * nothing back (the logging one), which counts every notification as sent.
   */
  readonly delivery: { fail(token: string, failure: DeliveryFailure): void; cutOff(): void } | null;
  /** Closes the sender (again, perhaps) and what stands behind it. */
  close(): Promise<void>;
}

/** A fresh world on the given clock. */
export type MakeSenderWorld = (now: () => number) => Promise<SenderWorld>;

const now = () => Date.UTC(2030, 0, 1, 12, 0, 0);
const inspection: OneshotSummary = { id: 12, name: 'Inspection', description: 'Call ahead', namespace: 'http://formcast.local/xforms/a1?b2' };

function notification(deviceId: number, overrides: Partial<DeviceNotification> = {}): DeviceNotification {
  return {
    orgId: 7,
    deviceId,
    deviceIdentifier: `Android_${deviceId}`,
    pushToken: `token-${deviceId}`,
    badge: 1,
    event: pushEvents.oneshotCreated,
    oneshot: inspection,
    announces: inspection,
    ...overrides,
  };
}

/** What handing `n` on must carry: the FCM message made for it. */
function expectedMessage(n: DeviceNotification): HandedOnMessage {
  const message = fcmMessage(n, now());
  return { data: message.data!, apnsBadge: message.apns!.payload!.aps.badge!, alert: message.notification as HandedOnMessage['alert'] };
}

const byDevice = (messages: HandedOnMessage[]) => [...messages].sort((a, b) => a.data['device_identifier']!.localeCompare(b.data['device_identifier']!));
const sent: SendOutcome = { status: 'sent' };

/**
 * What every NotificationSender adapter promises (the port, src/sender/notification-sender.ts):
 * one outcome per notification, in order; each notification handed on once, as its FCM
 * message; a failure, of one or of all, is an outcome, never a rejection. How a failure is
 * reported is asserted only for a sender that hears back from FCM; of the logging one, the
 * suite asserts what it can know: everything counts as sent.
 */
export function describeNotificationSenderContract(name: string, makeWorld: MakeSenderWorld): void {
  describe(name, () => {
    let world: SenderWorld;

    beforeEach(async () => {
      world = await makeWorld(now);
    });
    afterEach(() => world.close());

    it('names itself for the logs', () => {
      expect(world.sender.description).toMatch(/\S/);
    });

    it('answers an empty batch with no outcomes and hands nothing on', async () => {
      expect(await world.sender.sendEach([])).toEqual([]);
      expect(world.handedOn()).toEqual([]);
    });

    it('hands each notification on once, as its FCM message, and answers one outcome each', async () => {
      const batch = [
        notification(1, { badge: 3 }),
        notification(2, { badge: 2, event: pushEvents.oneshotUpdated, announces: null }),
        notification(3, { badge: 0, event: pushEvents.oneshotRevoked, announces: null }),
        notification(4, { oneshot: { ...inspection, description: '' }, announces: { ...inspection, description: '' } }),
      ];
      expect(await world.sender.sendEach(batch)).toEqual([sent, sent, sent, sent]);
      expect(byDevice(world.handedOn())).toEqual(batch.map(expectedMessage));
    });

    it(`takes a full batch (${maxSendBatch}) at once`, async () => {
      const batch = Array.from({ length: maxSendBatch }, (_, i) => notification(1000 + i, { badge: i }));
      const outcomes = await world.sender.sendEach(batch);
      expect(outcomes).toHaveLength(maxSendBatch);
      expect(outcomes.every((outcome) => outcome.status === 'sent')).toBe(true);
      expect(world.handedOn().map((m) => m.apnsBadge).sort((a, b) => a - b)).toEqual(batch.map((n) => n.badge));
    });

    // Each failure in the middle of a batch: the outcomes keep their places, the others are sent.
    it.each<[DeliveryFailure, SendOutcome]>([
      ['unregistered', { status: 'token_not_registered', code: 'messaging/registration-token-not-registered', message: expect.any(String) }],
      ['invalid', { status: 'rejected', code: 'messaging/invalid-argument', message: expect.any(String) }],
      ['server-error', { status: 'retry', code: 'messaging/internal-error', message: expect.any(String) }],
    ])('reports a token FCM answers for as %s by itself, in its place in the batch', async (failure, outcome) => {
      const batch = [notification(1), notification(2), notification(3)];
      world.delivery?.fail(batch[1]!.pushToken, failure);
      const outcomes = await world.sender.sendEach(batch);
      expect(outcomes).toEqual(world.delivery ? [sent, outcome, sent] : [sent, sent, sent]);
      expect(world.handedOn()).toHaveLength(3);
    });

    it('answers every notification retry, never rejecting, when FCM cannot be reached', async () => {
      world.delivery?.cutOff();
      const outcomes = await world.sender.sendEach([notification(1), notification(2)]);
      const unreachable = { status: 'retry', code: expect.any(String), message: expect.any(String) };
      expect(outcomes).toEqual(world.delivery ? [unreachable, unreachable] : [sent, sent]);
    });

    it('closes, and closing again does nothing', async () => {
      await world.sender.close();
      await expect(world.sender.close()).resolves.toBeUndefined();
    });
  });
}
