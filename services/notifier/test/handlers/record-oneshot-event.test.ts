import { Redis } from 'ioredis';
import { createEnvelope, pushEvents, type Envelope, type PushEventType } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { uniqueName } from '@formcast/testing';
import type { DeviceNotification } from '../../src/domain/device-notification';
import type { SendOutcome } from '../../src/domain/send-outcome';
import type { NotifierDeps } from '../../src/handlers/deps';
import { recordOneshotEvent } from '../../src/handlers/record-oneshot-event';
import { NotificationDispatcher } from '../../src/sender/notification-dispatcher';
import type { NotificationSender } from '../../src/sender/notification-sender';
import { SqliteBadgeStore, type BadgeStore } from '../../src/store';
import { RedisBadgeStore } from '../../src/store/redis-badge-store';
import { deleteKeys, redisUrlForTests } from '../redis-for-tests';

/** A sender that records what went out and answers as the test decides (by default: sent). */
class RecordingSender implements NotificationSender {
  readonly description = 'recording';
  readonly sent: DeviceNotification[] = [];
  answer: () => SendOutcome = () => ({ status: 'sent' });

  async sendEach(batch: DeviceNotification[]): Promise<SendOutcome[]> {
    this.sent.push(...batch);
    return batch.map(() => this.answer());
  }

  async close(): Promise<void> {}
}

const logger = createLogger({ level: 'silent' });
const keyPrefix = `${uniqueName('test_announce')}:`;
const url = redisUrlForTests();
let nextDevice = 1;

function created(deviceId: number, oneshotId: number, pushToken: string | null = `token-${deviceId}`): Envelope {
  return createEnvelope(
    pushEvents.oneshotCreated,
    {
      oneshotId,
      orgId: 1,
      deviceId,
      deviceIdentifier: `Android_${deviceId}`,
      pushToken,
      name: `Inspection ${oneshotId}`,
      description: '',
      namespace: `http://formcast.local/xforms/${oneshotId}`,
    },
    { orgId: 1 },
  );
}

/** One notifier replica's handler for `created`, over the given badge store. */
function replica(badges: BadgeStore) {
  const sender = new RecordingSender();
  const notifications = new NotificationDispatcher(sender, { logger });
  const deps: NotifierDeps = { badges, notifications, bus: { request: async <T>() => undefined as T }, logger };
  const handlers = new Map<PushEventType, ReturnType<typeof recordOneshotEvent>>(
    [pushEvents.oneshotCreated, pushEvents.oneshotRevoked].map((type) => [type, recordOneshotEvent(deps, type)]),
  );
  return {
    sender,
    handle: (event: Envelope, delivery = { attempt: 1, redelivered: false }) => handlers.get(event.type as PushEventType)!(event, delivery),
    alerts: () => sender.sent.filter((n) => n.announces !== null).map((n) => n.oneshot.id),
    badgeOnly: () => sender.sent.filter((n) => n.announces === null).map((n) => n.badge),
    close: () => notifications.close(),
  };
}

const stores: Array<[string, () => Promise<BadgeStore>]> = [
  ['SQLite', async () => new SqliteBadgeStore(':memory:')],
  ['Redis', () => RedisBadgeStore.open({ url, keyPrefix })],
];

afterAll(async () => {
  const admin = new Redis(url);
  await deleteKeys(admin, keyPrefix);
  await admin.quit();
});

describe.each(stores)('recordOneshotEvent announces a oneshot once (%s badges)', (_name, openStore) => {
  let badges: BadgeStore;
  let notifier: ReturnType<typeof replica>;

  beforeEach(async () => {
    badges = await openStore();
    notifier = replica(badges);
  });
  afterEach(async () => {
    await notifier.close();
    await badges.close();
  });

  it('alerts for the first copy of a created, and sends the badge silently for every further copy', async () => {
    const device = nextDevice++;
    const event = created(device, 1);
    await notifier.handle(event);
    await notifier.handle(event);
    await notifier.handle(createEnvelope(event.type, event.payload, { orgId: 1 })); // published twice: another envelope id
    expect(notifier.alerts()).toEqual([1]);
    expect(notifier.badgeOnly()).toEqual([1, 1]);
  });

  it('gives the announcement back when the send is to be retried, so the retry alerts', async () => {
    const device = nextDevice++;
    const event = created(device, 3);
    notifier.sender.answer = () => ({ status: 'retry', code: 'messaging/internal-error', message: 'try later' });
    await expect(notifier.handle(event)).rejects.toThrow(/FCM did not take the notification/);
    notifier.sender.answer = () => ({ status: 'sent' });
    await notifier.handle(event, { attempt: 2, redelivered: false });
    await notifier.handle(event, { attempt: 1, redelivered: false }); // a copy, after
    expect(notifier.alerts()).toEqual([3, 3]); // the refused one, then the retry
    expect(notifier.badgeOnly()).toEqual([1]);
  });

  it('keeps the announcement of a message FCM refused for good: a copy does not alert', async () => {
    const device = nextDevice++;
    const event = created(device, 4);
    notifier.sender.answer = () => ({ status: 'rejected', code: 'messaging/invalid-argument', message: 'bad' });
    await notifier.handle(event);
    notifier.sender.answer = () => ({ status: 'sent' });
    await notifier.handle(event);
    expect(notifier.alerts()).toEqual([4]);
  });

  it('alerts again for a redelivery by the broker (the handler before it died)', async () => {
    const device = nextDevice++;
    const event = created(device, 5);
    await notifier.handle(event);
    await notifier.handle(event, { attempt: 1, redelivered: true });
    expect(notifier.alerts()).toEqual([5, 5]);
  });

  it('takes no announcement for a device without a push token: once it has one, its created alerts', async () => {
    const device = nextDevice++;
    await notifier.handle(created(device, 6, null));
    expect(notifier.sender.sent).toEqual([]);
    await notifier.handle(created(device, 6));
    expect(notifier.alerts()).toEqual([6]);
  });

  it('does not alert for a created after its oneshot ended', async () => {
    const device = nextDevice++;
    const event = created(device, 7);
    await notifier.handle(createEnvelope(pushEvents.oneshotRevoked, event.payload, { orgId: 1 }));
    await notifier.handle(event);
    expect(notifier.alerts()).toEqual([]);
    expect(notifier.badgeOnly()).toEqual([0, 0]);
  });
});

describe('recordOneshotEvent on two replicas sharing Redis badges', () => {
  it('alerts once for copies of one created handled by both', async () => {
    const [storeA, storeB] = [await RedisBadgeStore.open({ url, keyPrefix }), await RedisBadgeStore.open({ url, keyPrefix })];
    const [a, b] = [replica(storeA), replica(storeB)];
    try {
      const device = nextDevice++;
      const events = Array.from({ length: 50 }, (_, i) => created(device + i * 1000, 100 + i));
      await Promise.all(events.flatMap((event) => [a.handle(event), b.handle(event)]));
      expect([...a.alerts(), ...b.alerts()].sort((x, y) => x - y)).toEqual(events.map((_, i) => 100 + i));
      expect(a.sender.sent.length + b.sender.sent.length).toBe(100);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([storeA.close(), storeB.close()]);
    }
  });
});
