import type { BadgeDevice, BadgeStore, BadgeStoreOptions } from '../../src/store';

/** A clock the suite moves by hand. */
export class TestClock {
  constructor(private ms = Date.UTC(2030, 0, 1)) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export type MakeBadgeStore = (options: Required<BadgeStoreOptions>) => Promise<BadgeStore>;

const hour = 60 * 60 * 1000;

/**
 * The behaviour every BadgeStore adapter must have (see the port in src/store/badge-store.ts):
 * one suite, run against each adapter. `makeStore` gives a fresh, empty store on the given
 * clock and TTL; the suite closes it afterwards.
 */
export function describeBadgeStoreContract(name: string, makeStore: MakeBadgeStore): void {
  describe(name, () => {
    const tombstoneTtlMs = 24 * hour;
    let clock: TestClock;
    let store: BadgeStore;
    let nextDevice = 1;
    const newDevice = (orgId = 7): BadgeDevice => ({ orgId, deviceId: nextDevice++ });

    beforeEach(async () => {
      clock = new TestClock();
      store = await makeStore({ tombstoneTtlMs, now: clock.now });
    });

    afterEach(async () => {
      await store.close();
    });

    it('counts nothing for a device it never saw', async () => {
      expect(await store.badge(newDevice())).toBe(0);
    });

    it('counts outstanding oneshots and stops counting ended ones', async () => {
      const device = newDevice();
      expect(await store.record(device, 11, 'outstanding')).toEqual({ badge: 1, outstanding: true, announce: false });
      expect(await store.record(device, 12, 'outstanding')).toEqual({ badge: 2, outstanding: true, announce: false });
      expect(await store.record(device, 13, 'outstanding')).toEqual({ badge: 3, outstanding: true, announce: false });
      expect(await store.record(device, 12, 'ended')).toEqual({ badge: 2, outstanding: false, announce: false });
      expect(await store.badge(device)).toBe(2);
      expect(await store.record(device, 11, 'ended')).toEqual({ badge: 1, outstanding: false, announce: false });
      expect(await store.record(device, 13, 'ended')).toEqual({ badge: 0, outstanding: false, announce: false });
      expect(await store.badge(device)).toBe(0);
    });

    it('counts a duplicated or redelivered created once, and an update of an outstanding oneshot not at all', async () => {
      const device = newDevice();
      await store.record(device, 21, 'outstanding');
      expect(await store.record(device, 21, 'outstanding')).toEqual({ badge: 1, outstanding: true, announce: false });
      expect(await store.record(device, 21, 'outstanding')).toEqual({ badge: 1, outstanding: true, announce: false });
      expect(await store.badge(device)).toBe(1);
    });

    it('never goes below the number outstanding when an end is redelivered', async () => {
      const device = newDevice();
      await store.record(device, 31, 'outstanding');
      await store.record(device, 32, 'outstanding');
      await store.record(device, 31, 'ended');
      expect(await store.record(device, 31, 'ended')).toEqual({ badge: 1, outstanding: false, announce: false });
      expect(await store.record(device, 31, 'ended')).toEqual({ badge: 1, outstanding: false, announce: false });
      expect(await store.badge(device)).toBe(1);
    });

    it('ignores a created or updated that arrives after its completed or revoked', async () => {
      const device = newDevice();
      expect(await store.record(device, 41, 'ended')).toEqual({ badge: 0, outstanding: false, announce: false });
      expect(await store.record(device, 41, 'outstanding')).toEqual({ badge: 0, outstanding: false, announce: false });
      await store.record(device, 42, 'outstanding');
      await store.record(device, 42, 'ended');
      clock.advance(tombstoneTtlMs - 1);
      expect(await store.record(device, 42, 'outstanding')).toEqual({ badge: 0, outstanding: false, announce: false });
      expect(await store.badge(device)).toBe(0);
    });

    it('counts an update that arrives before its created once', async () => {
      const device = newDevice();
      await store.record(device, 51, 'outstanding'); // updated, delivered first
      expect(await store.record(device, 51, 'outstanding')).toEqual({ badge: 1, outstanding: true, announce: false }); // created
      expect(await store.record(device, 51, 'ended')).toEqual({ badge: 0, outstanding: false, announce: false });
    });

    it('gives the same badge whatever order one oneshot history arrives in', async () => {
      const histories: Array<Array<[number, 'outstanding' | 'ended']>> = [
        [[61, 'outstanding'], [61, 'outstanding'], [61, 'ended'], [62, 'outstanding']],
        [[61, 'ended'], [62, 'outstanding'], [61, 'outstanding'], [61, 'outstanding']],
        [[62, 'outstanding'], [61, 'outstanding'], [61, 'ended'], [61, 'ended'], [61, 'outstanding']],
      ];
      for (const history of histories) {
        const device = newDevice();
        for (const [oneshotId, state] of history) await store.record(device, oneshotId, state);
        expect(await store.badge(device)).toBe(1);
      }
    });

    it('forgets a tombstone once it is older than the TTL', async () => {
      const device = newDevice();
      await store.record(device, 71, 'ended');
      clock.advance(tombstoneTtlMs);
      expect(await store.record(device, 71, 'outstanding')).toEqual({ badge: 1, outstanding: true, announce: false });
    });

    it('keeps the latest end time when an end is redelivered later', async () => {
      const device = newDevice();
      await store.record(device, 81, 'ended');
      clock.advance(tombstoneTtlMs - hour);
      await store.record(device, 81, 'ended');
      clock.advance(2 * hour);
      expect(await store.record(device, 81, 'outstanding')).toEqual({ badge: 0, outstanding: false, announce: false });
    });

    it('keeps devices and organizations apart', async () => {
      const device = newDevice(7);
      const sameIdOtherOrg: BadgeDevice = { orgId: 8, deviceId: device.deviceId };
      const otherDevice = newDevice(7);
      await store.record(device, 91, 'outstanding');
      await store.record(device, 92, 'outstanding');
      await store.record(sameIdOtherOrg, 91, 'ended');
      await store.record(otherDevice, 92, 'ended');
      expect(await store.badge(device)).toBe(2);
      expect(await store.badge(sameIdOtherOrg)).toBe(0);
      expect(await store.record(sameIdOtherOrg, 93, 'outstanding')).toEqual({ badge: 1, outstanding: true, announce: false });
      expect(await store.badge(otherDevice)).toBe(0);
    });

    it('counts right when many events for one device arrive at once, with duplicates', async () => {
      const device = newDevice();
      const ids = Array.from({ length: 200 }, (_, i) => 1000 + i);
      await Promise.all([
        ...ids.map((id) => store.record(device, id, 'outstanding')),
        ...ids.map((id) => store.record(device, id, 'outstanding')),
        ...ids.filter((id) => id % 4 === 0).map((id) => store.record(device, id, 'ended')),
      ]);
      expect(await store.badge(device)).toBe(150);
      await Promise.all(ids.filter((id) => id % 4 === 0).map((id) => store.record(device, id, 'outstanding')));
      expect(await store.badge(device)).toBe(150);
    });

    it('gives a oneshot\'s announcement to one record only, duplicates and updates included', async () => {
      const device = newDevice();
      expect(await store.record(device, 101, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: true });
      expect(await store.record(device, 101, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: false });
      expect(await store.record(device, 101, 'outstanding')).toEqual({ badge: 1, outstanding: true, announce: false });
      expect(await store.record(device, 101, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: false });
      expect(await store.record(device, 102, 'outstanding', true)).toEqual({ badge: 2, outstanding: true, announce: true });
    });

    it('takes no announcement unless asked, and one asked for later is still free', async () => {
      const device = newDevice();
      expect(await store.record(device, 111, 'outstanding')).toEqual({ badge: 1, outstanding: true, announce: false }); // updated first
      expect(await store.record(device, 111, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: true }); // created
    });

    it('announces nothing that has ended, whatever arrives after', async () => {
      const device = newDevice();
      await store.record(device, 121, 'ended');
      expect(await store.record(device, 121, 'outstanding', true)).toEqual({ badge: 0, outstanding: false, announce: false });
      await store.record(device, 122, 'outstanding', true);
      expect(await store.record(device, 122, 'ended', true)).toEqual({ badge: 0, outstanding: false, announce: false });
      expect(await store.record(device, 122, 'outstanding', true)).toEqual({ badge: 0, outstanding: false, announce: false });
    });

    it('gives a released announcement to the next record that asks, once', async () => {
      const device = newDevice();
      await store.record(device, 131, 'outstanding', true);
      await store.releaseAnnouncement(device, 131);
      expect(await store.record(device, 131, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: true });
      expect(await store.record(device, 131, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: false });
      await store.releaseAnnouncement(device, 999); // never taken: nothing happens
      await store.releaseAnnouncement(newDevice(), 131);
      expect(await store.record(device, 131, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: false });
    });

    it('remembers an announcement for the TTL, then forgets it', async () => {
      const device = newDevice();
      await store.record(device, 141, 'outstanding', true);
      clock.advance(tombstoneTtlMs - 1);
      expect(await store.record(device, 141, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: false });
      clock.advance(1);
      expect(await store.record(device, 141, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: true });
    });

    it('keeps announcements of devices and organizations apart', async () => {
      const device = newDevice(7);
      const sameIdOtherOrg: BadgeDevice = { orgId: 8, deviceId: device.deviceId };
      await store.record(device, 151, 'outstanding', true);
      expect(await store.record(sameIdOtherOrg, 151, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: true });
      expect(await store.record(newDevice(7), 151, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: true });
    });

    it('gives each announcement to exactly one of many copies arriving at once', async () => {
      const device = newDevice();
      const ids = Array.from({ length: 100 }, (_, i) => 2000 + i);
      const changes = await Promise.all(ids.flatMap((id) => [1, 2, 3].map(() => store.record(device, id, 'outstanding', true).then((change) => ({ id, change })))));
      for (const id of ids) {
        expect(changes.filter((c) => c.id === id && c.change.announce)).toHaveLength(1);
      }
      expect(await store.badge(device)).toBe(100);
    });

    it('answers ping while open, and not after close', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
      await expect(store.close()).resolves.toBeUndefined();
      await expect(store.ping()).rejects.toThrow();
    });
  });
}
