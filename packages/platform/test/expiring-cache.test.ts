import { ExpiringCache } from '../src/expiring-cache';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ExpiringCache', () => {
  it('answers an entry until its time is up, then forgets it', async () => {
    const cache = new ExpiringCache<string, number>({ ttlMs: 40, maxEntries: 10 });
    cache.set('a', 1);
    expect(cache.get('a')).toBe(1);
    expect(cache.remainingMs('a')).toBeGreaterThan(0);
    await sleep(60);
    expect(cache.remainingMs('a')).toBe(0);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('with a ttl of 0 keeps nothing', () => {
    const cache = new ExpiringCache<string, number>({ ttlMs: 0, maxEntries: 10 });
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('forgets the oldest set first when full; setting a key again makes it the newest', () => {
    const cache = new ExpiringCache<string, number>({ ttlMs: 10_000, maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3); // a is now newer than b
    cache.set('c', 4);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(3);
    expect(cache.get('c')).toBe(4);
  });

  it('deletes one key, or every entry whose value matches', () => {
    const cache = new ExpiringCache<string, { orgId: number }>({ ttlMs: 10_000, maxEntries: 10 });
    cache.set('a', { orgId: 1 });
    cache.set('b', { orgId: 2 });
    cache.set('c', { orgId: 1 });
    cache.deleteWhere((value) => value.orgId === 1);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, { orgId: 2 }, undefined]);
    cache.delete('b');
    expect(cache.size).toBe(0);
  });
});
