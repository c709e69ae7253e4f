import { Redis } from 'ioredis';
import { pushEvents } from '@formcast/contracts';
import { uniqueName, waitFor } from '@formcast/testing';
import type { DeviceNotification } from '../../src/domain/device-notification';
import type { BadgeDevice } from '../../src/domain/badge-device';
import type { SendOutcome } from '../../src/domain/send-outcome';
import type { DeviceSendGuard } from '../../src/sender/device-send-guard';
import { NotificationDispatcher } from '../../src/sender/notification-dispatcher';
import type { NotificationSender } from '../../src/sender/notification-sender';
import { RedisBadgeStore } from '../../src/store/redis-badge-store';
import { deleteKeys, redisUrlForTests } from '../redis-for-tests';

/** A sender whose batches wait until the test lets them through, remembering what went out in which order. */
class HeldSender implements NotificationSender {
  readonly description = 'held';
  private readonly held: Array<() => void> = [];

  constructor(
    private readonly name: string,
    private readonly sent: Array<{ by: string; badge: number }>,
  ) {}

  get waiting(): number {
    return this.held.length;
  }

  sendEach(batch: DeviceNotification[]): Promise<SendOutcome[]> {
    return new Promise((resolve) => {
      this.held.push(() => {
        for (const notification of batch) this.sent.push({ by: this.name, badge: notification.badge });
        resolve(batch.map(() => ({ status: 'sent' })));
      });
    });
  }

  letThrough(): void {
    for (const send of this.held.splice(0)) send();
  }

  async close(): Promise<void> {}
}

/** A replica's guard, counting the claims it was refused (another replica held the device). */
class RefusalCountingGuard implements DeviceSendGuard {
  refused = 0;

  constructor(private readonly guard: DeviceSendGuard) {}

  async claim(devices: BadgeDevice[]): Promise<Array<number | null>> {
    const badges = await this.guard.claim(devices);
    this.refused += badges.filter((badge) => badge === null).length;
    return badges;
  }

  release(devices: BadgeDevice[]): Promise<void> {
    return this.guard.release(devices);
  }
}

const url = redisUrlForTests();
const keyPrefix = `${uniqueName('test_send_rights')}:`;
const device = { orgId: 5, deviceId: 77 };

function created(oneshotId: number, badge: number): DeviceNotification {
  const oneshot = { id: oneshotId, name: `Form ${oneshotId}`, description: '', namespace: 'http://formcast.local/xforms/f' };
  return { ...device, deviceIdentifier: 'Android_77', pushToken: 'token-77', badge, event: pushEvents.oneshotCreated, oneshot, announces: oneshot };
}

describe('NotificationDispatcher, two replicas sharing Redis', () => {
  let admin: Redis;
  let storeA: RedisBadgeStore;
  let storeB: RedisBadgeStore;
  let sent: Array<{ by: string; badge: number }>;
  let senderA: HeldSender;
  let senderB: HeldSender;
  let replicaA: NotificationDispatcher;
  let replicaB: NotificationDispatcher;
  let guardB: RefusalCountingGuard;

  beforeAll(async () => {
    admin = new Redis(url);
    storeA = await RedisBadgeStore.open({ url, keyPrefix });
    storeB = await RedisBadgeStore.open({ url, keyPrefix });
  });
  afterAll(async () => {
    await storeA.close();
    await storeB.close();
    await deleteKeys(admin, keyPrefix);
    await admin.quit();
  });

  beforeEach(async () => {
    await deleteKeys(admin, keyPrefix);
    sent = [];
    senderA = new HeldSender('A', sent);
    senderB = new HeldSender('B', sent);
    replicaA = new NotificationDispatcher(senderA, { guard: storeA.sendGuard(), claimRetryMs: 5 });
    guardB = new RefusalCountingGuard(storeB.sendGuard());
    replicaB = new NotificationDispatcher(senderB, { guard: guardB, claimRetryMs: 5 });
  });
  afterEach(async () => {
    senderA.letThrough();
    senderB.letThrough();
    await replicaA.close();
    await replicaB.close();
  });

  it('lets one replica send to a device at a time, so the newer badge goes out last', async () => {
    const first = await storeA.record(device, 1, 'outstanding');
    const outcomeA = replicaA.dispatch(created(1, first.badge));
    await waitFor(() => senderA.waiting === 1, { description: 'replica A sending' });

    const second = await storeB.record(device, 2, 'outstanding');
    const outcomeB = replicaB.dispatch(created(2, second.badge));
    // B asks for the device's right again and again, and is refused while A holds it.
    await waitFor(() => guardB.refused >= 3, { description: 'replica B refused the right three times' });
    expect(senderB.waiting).toBe(0);

    senderA.letThrough();
    await waitFor(() => senderB.waiting === 1, { description: 'replica B sending once A is done' });
    senderB.letThrough();

    await expect(Promise.all([outcomeA, outcomeB])).resolves.toEqual([{ status: 'sent' }, { status: 'sent' }]);
    expect(sent).toEqual([
      { by: 'A', badge: 1 },
      { by: 'B', badge: 2 },
    ]);
  });

  it('sends the badge as it is when the right is taken, not as it was at the event', async () => {
    await storeB.record(device, 1, 'outstanding');
    await storeB.record(device, 2, 'outstanding');
    await storeB.record(device, 3, 'outstanding');

    const outcome = replicaA.dispatch(created(1, 1));
    await waitFor(() => senderA.waiting === 1, { description: 'replica A sending' });
    senderA.letThrough();

    await expect(outcome).resolves.toEqual({ status: 'sent' });
    expect(sent).toEqual([{ by: 'A', badge: 3 }]);
  });

  it('answers retry when another replica holds the device longer than it waits', async () => {
    await storeB.claim([device]);
    const patient = new NotificationDispatcher(senderA, { guard: storeA.sendGuard(), claimRetryMs: 5, maxClaimWaitMs: 50 });
    try {
      await expect(patient.dispatch(created(1, 1))).resolves.toMatchObject({ status: 'retry', code: 'notifier/send-right-held' });
      expect(sent).toEqual([]);
    } finally {
      await patient.close();
      await storeB.release([device]);
    }
  });
});
