import { Redis } from 'ioredis';
import { uniqueName, waitFor } from '@formcast/testing';
import { openBadgeStore } from '../../src/store';
import { RedisBadgeStore } from '../../src/store/redis-badge-store';
import { describeBadgeStoreContract, TestClock } from './badge-store.contract';
import { deleteKeys, redisUrlForTests } from '../redis-for-tests';

/** The Redis Cluster slot of a key (CRC16/XMODEM of its hash tag, or of the whole key, mod 16384). */
function calculateSlot(key: string): number {
  const open = key.indexOf('{');
  const close = open === -1 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(hashed)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/** Every key of this test run starts with it; deleted afterwards. */
const keyPrefix = `${uniqueName('test_badges')}:`;
const url = redisUrlForTests();
let admin: Redis;

beforeAll(() => {
  admin = new Redis(url, { lazyConnect: true });
  return admin.connect();
});

afterAll(async () => {
  await deleteKeys(admin, keyPrefix);
  expect(await admin.keys(`${keyPrefix}*`)).toEqual([]);
  await admin.quit();
});

describeBadgeStoreContract('RedisBadgeStore', (options) => RedisBadgeStore.open({ url, keyPrefix, ...options }));

describe('RedisBadgeStore keys', () => {
  let store: RedisBadgeStore;
  const clock = new TestClock();
  const tombstoneTtlMs = 3 * 24 * 60 * 60 * 1000;

  beforeAll(async () => {
    store = await RedisBadgeStore.open({ url, keyPrefix, tombstoneTtlMs, now: clock.now });
  });
  afterAll(() => store.close());

  it("keeps one device's keys in one hash slot, tagged by organization and device", async () => {
    expect([calculateSlot('foo'), calculateSlot('123456789'), calculateSlot('x{foo}y')]).toEqual([12182, 12739, 12182]);
    const keys = store.keysOf({ orgId: 3, deviceId: 44 });
    expect(keys).toEqual({
      outstanding: `${keyPrefix}{device:3:44}:outstanding`,
      ended: `${keyPrefix}{device:3:44}:ended`,
      announced: `${keyPrefix}{device:3:44}:announced`,
      sendRight: `${keyPrefix}{device:3:44}:sending`,
    });
    expect(calculateSlot(keys.outstanding)).toBe(calculateSlot(keys.ended));
    expect(calculateSlot(keys.outstanding)).toBe(calculateSlot(keys.sendRight));
    expect(calculateSlot(keys.outstanding)).toBe(calculateSlot(keys.announced));
    expect(calculateSlot(keys.outstanding)).not.toBe(calculateSlot(store.keysOf({ orgId: 3, deviceId: 45 }).outstanding));
  });

  it('holds outstanding ids in a set and tombstones in a sorted set that expires after the TTL', async () => {
    const device = { orgId: 3, deviceId: 46 };
    const keys = store.keysOf(device);
    await store.record(device, 1, 'outstanding');
    await store.record(device, 2, 'outstanding');
    await store.record(device, 2, 'ended');
    expect(await admin.smembers(keys.outstanding)).toEqual(['1']);
    expect(await admin.pttl(keys.outstanding)).toBe(-1);
    expect(await admin.zrange(keys.ended, 0, -1, 'WITHSCORES')).toEqual(['2', String(clock.now())]);
    const pttl = await admin.pttl(keys.ended);
    expect(pttl).toBeGreaterThan(tombstoneTtlMs - 60_000);
    expect(pttl).toBeLessThanOrEqual(tombstoneTtlMs);
  });

  it('drops expired tombstones of a device when it changes', async () => {
    const device = { orgId: 3, deviceId: 47 };
    const keys = store.keysOf(device);
    await store.record(device, 1, 'ended');
    await store.record(device, 2, 'ended');
    clock.advance(tombstoneTtlMs);
    await store.record(device, 3, 'ended');
    expect(await admin.zrange(keys.ended, 0, -1)).toEqual(['3']);
  });

  it('holds announced ids in a sorted set beside the badge keys, expiring after the TTL, and drops one when its oneshot ends', async () => {
    const device = { orgId: 3, deviceId: 48 };
    const keys = store.keysOf(device);
    await store.record(device, 1, 'outstanding', true);
    await store.record(device, 2, 'outstanding', true);
    await store.record(device, 3, 'outstanding');
    expect(await admin.zrange(keys.announced, 0, -1, 'WITHSCORES')).toEqual(['1', String(clock.now()), '2', String(clock.now())]);
    const pttl = await admin.pttl(keys.announced);
    expect(pttl).toBeGreaterThan(tombstoneTtlMs - 60_000);
    expect(pttl).toBeLessThanOrEqual(tombstoneTtlMs);
    await store.record(device, 2, 'ended');
    await store.releaseAnnouncement(device, 1);
    expect(await admin.exists(keys.announced)).toBe(0);
  });

  it('drops expired announcements of a device when it changes', async () => {
    const device = { orgId: 3, deviceId: 49 };
    const keys = store.keysOf(device);
    await store.record(device, 1, 'outstanding', true);
    clock.advance(tombstoneTtlMs);
    await store.record(device, 2, 'outstanding', true);
    expect(await admin.zrange(keys.announced, 0, -1)).toEqual(['2']);
  });

  it('refuses a key prefix that would break the hash tag', async () => {
    await expect(RedisBadgeStore.open({ url, keyPrefix: 'bad{prefix}:' })).rejects.toThrow(/must not contain/);
  });

  it('fails to open, naming REDIS_URL, when Redis cannot be reached', async () => {
    await expect(
      openBadgeStore({ redisUrl: 'redis://127.0.0.1:1', sqliteFile: ':memory:' }),
    ).rejects.toThrow(/Cannot reach Redis for badges \(REDIS_URL\)/);
  });
});

describe('RedisBadgeStore send rights (two notifier processes)', () => {
  let first: RedisBadgeStore;
  let second: RedisBadgeStore;

  beforeAll(async () => {
    first = await RedisBadgeStore.open({ url, keyPrefix, sendRightMs: 300 });
    second = await RedisBadgeStore.open({ url, keyPrefix, sendRightMs: 300 });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('gives a device to one process at a time, with its badge as it is when taken', async () => {
    const device = { orgId: 8, deviceId: 1 };
    const other = { orgId: 8, deviceId: 2 };
    await first.record(device, 11, 'outstanding');
    await first.record(device, 12, 'outstanding');

    expect(await first.claim([device, other])).toEqual([2, 0]);
    expect(await second.claim([device, other])).toEqual([null, null]);
    expect(await first.claim([device])).toEqual([2]); // its own right, renewed

    await second.release([device]); // not its right: nothing changes
    expect(await second.claim([device])).toEqual([null]);

    await first.release([device, other]);
    await second.record(device, 13, 'outstanding');
    expect(await second.claim([device])).toEqual([3]);
    await second.release([device]);
  });

  it('lets a right expire when its holder never gives it back (the process died)', async () => {
    const device = { orgId: 8, deviceId: 3 };
    expect(await first.claim([device])).toEqual([0]);
    expect(await second.claim([device])).toEqual([null]);
    // Redis expires it (PX, on the server's clock), so the wait is real: about sendRightMs.
    const pttl = await admin.pttl(first.keysOf(device).sendRight);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(300);
    await waitFor(async () => (await second.claim([device]))[0] === 0, { timeoutMs: 2000, description: 'the right to expire' });
    await second.release([device]);
  });
});
