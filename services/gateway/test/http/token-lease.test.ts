import { LEASE_EXPIRY_MS, LEASE_MAX_TOKENS, leaseSize, TokenLeases } from '../../src/http/token-lease';

describe('token leases (a replica taking ahead from a shared bucket)', () => {
  it('takes a tenth of a second of the rate at once, at most a tenth of the bucket and LEASE_MAX_TOKENS; a small bucket one at a time', () => {
    expect(leaseSize({ perSecond: 1000, burst: 5000 })).toBe(100);
    expect(leaseSize({ perSecond: 200, burst: 2000 })).toBe(20);
    expect(leaseSize({ perSecond: 1000, burst: 200 })).toBe(20);
    expect(leaseSize({ perSecond: 1_000_000, burst: 1_000_000 })).toBe(LEASE_MAX_TOKENS);
    // A device's (20 a second), the tests' small buckets, a rate under one a second: each take asks.
    expect(leaseSize({ perSecond: 20, burst: 200 })).toBe(2);
    expect(leaseSize({ perSecond: 10, burst: 5 })).toBe(1);
    expect(leaseSize({ perSecond: 0.1, burst: 2 })).toBe(1);
  });

  it('spends what it holds, counting it in what is left, then has nothing', () => {
    let now = 1000;
    const leases = new TokenLeases(() => now);
    expect(leases.spend('org-1')).toBeNull();
    // The bucket had 50 left after giving 3 (one spent at once, 2 held), full again in 40 ms.
    leases.hold('org-1', 2, 50, 40_000);
    now += 10;
    expect(leases.spend('org-1')).toEqual({ remaining: 51, waitMicros: 30_000 });
    expect(leases.spend('org-1')).toEqual({ remaining: 50, waitMicros: 30_000 });
    expect(leases.spend('org-1')).toBeNull();
    expect(leases.size).toBe(0);
    // Another key holds nothing.
    leases.hold('org-1', 5, 0, 1000);
    expect(leases.spend('org-2')).toBeNull();
  });

  it(`drops what is held after LEASE_EXPIRY_MS (${LEASE_EXPIRY_MS} ms)`, () => {
    let now = 0;
    const leases = new TokenLeases(() => now);
    leases.hold('org-1', 10, 100, 5000);
    now += LEASE_EXPIRY_MS - 1;
    expect(leases.spend('org-1')).not.toBeNull();
    now += 1;
    expect(leases.spend('org-1')).toBeNull();
    expect(leases.size).toBe(0);
  });

  it('sweeps the leases of keys that do not come again, once a second', () => {
    let now = 0;
    const leases = new TokenLeases(() => now);
    for (let n = 0; n < 1000; n += 1) leases.hold(`address-${n}`, 3, 10, 1000);
    expect(leases.size).toBe(1000);
    for (let n = 0; n < 1000; n += 1) leases.refused(`device-${n}`, 500_000);
    expect(leases.size).toBe(2000);
    now += LEASE_EXPIRY_MS;
    expect(leases.knownEmpty('another')).toBeNull();
    expect(leases.size).toBe(0);
    // The sweep runs at most once a second.
    leases.hold('address-0', 3, 10, 1000);
    now += LEASE_EXPIRY_MS - 1;
    expect(leases.knownEmpty('another')).toBeNull();
    expect(leases.size).toBe(1);
    now += 1;
    expect(leases.knownEmpty('another')).toBeNull();
    expect(leases.size).toBe(0);
  });

  it('after a refusal knows the bucket empty until its next token, counted from when the take was sent', () => {
    let now = 0;
    const leases = new TokenLeases(() => now);
    leases.hold('org-1', 5, 0, 1000);
    // Sent at 0, answered at 3: no token for 10 ms of the bucket's clock, read between the two.
    now = 3;
    leases.refused('org-1', 10_000, 0);
    expect(leases.spend('org-1')).toBeNull();
    expect(leases.knownEmpty('org-1')).toBe(7000);
    now = 9.5;
    expect(leases.knownEmpty('org-1')).toBe(500);
    expect(leases.knownEmpty('org-2')).toBeNull();
    now = 10;
    expect(leases.knownEmpty('org-1')).toBeNull();
  });
});
