import { DeviceSecretCache } from '../../src/http/device-secret-cache';

const device = (orgId: number, deviceId: number) => ({ orgId, deviceId, identifier: `Android_${deviceId}` });

describe('DeviceSecretCache', () => {
  it('keeps what a secret authenticates until its device is forgotten, and only that device', () => {
    const cache = new DeviceSecretCache({ ttlMs: 60_000, maxEntries: 10 });
    cache.set('a', device(1, 7), cache.mark);
    cache.set('b', device(1, 8), cache.mark);
    cache.set('c', device(2, 7), cache.mark);
    expect(cache.get('a')).toEqual(device(1, 7));
    cache.forgetDevice(1, 7);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual(device(1, 8));
    expect(cache.get('c')).toEqual(device(2, 7));
  });

  it('does not keep an answer asked for before a device was forgotten (it may predate the deletion)', () => {
    const cache = new DeviceSecretCache({ ttlMs: 60_000, maxEntries: 10 });
    const mark = cache.mark;
    cache.forgetDevice(1, 7);
    cache.set('a', device(1, 7), mark);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', device(1, 7), cache.mark);
    expect(cache.get('a')).toEqual(device(1, 7));
  });

  it('forgets an answer after its time', async () => {
    const cache = new DeviceSecretCache({ ttlMs: 20, maxEntries: 10 });
    cache.set('a', device(1, 7), cache.mark);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.get('a')).toBeUndefined();
  });
});
