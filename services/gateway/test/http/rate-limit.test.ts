import type { Response } from 'express';
import { Redis } from 'ioredis';
import { metricsRegistry } from '@formcast/metrics';
import { isAppError } from '@formcast/platform';
import { RateBucket, type RateLimitStore } from '../../src/http/rate-limit';

const redisUrl = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';

/** The headers a bucket sets, on a stand-in for express's Response (only setHeader is used). */
function answer() {
  const headers: Record<string, string> = {};
  return { headers, res: { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value) } as unknown as Response };
}

/** One take: its headers, and whether it was refused (429's AppError). */
async function takeOne(bucket: RateBucket, key: string): Promise<{ refused: boolean; headers: Record<string, string> }> {
  const { headers, res } = answer();
  try {
    await bucket.take(key, res);
    return { refused: false, headers };
  } catch (error) {
    if (!isAppError(error) || error.code !== 'rate_limited') throw error;
    return { refused: true, headers };
  }
}

async function rateLimitedCount(name: string): Promise<number> {
  const line = (await metricsRegistry.metrics()).split('\n').find((l) => l.startsWith(`formcast_http_rate_limited_total{bucket="${name}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Places a bucket can live: each gives the stores of two gateways. In memory each process has
 * its own (one gateway); in Redis two gateways with clients of their own share one bucket.
 */
const places: Array<[string, () => { stores: RateLimitStore[]; clients: Redis[] }]> = [
  ['in memory', () => ({ stores: [{ kind: 'memory' }], clients: [] })],
  [
    'in Redis, two gateways',
    () => {
      const clients = [new Redis(redisUrl), new Redis(redisUrl)];
      return { stores: clients.map((client): RateLimitStore => ({ kind: 'redis', client })), clients };
    },
  ],
];

describe.each(places)('rate buckets %s', (_place, open) => {
  let stores: RateLimitStore[];
  let clients: Redis[];
  const name = (what: string) => `${what}-${process.pid}-${Date.now()}`;

  beforeEach(() => ({ stores, clients } = open()));
  afterEach(async () => {
    if (clients.length === 0) return;
    const keys = await clients[0]!.keys(`formcast:rate:*-${process.pid}-*`);
    if (keys.length > 0) await clients[0]!.del(...keys);
    await Promise.all(clients.map((client) => client.quit()));
  });

  const bucketsOf = (bucketName: string, setting: { perSecond: number; burst: number }) => stores.map((store) => new RateBucket(bucketName, setting, store));

  it('holds a burst and then the steady rate exactly (10 a second, 5 at once), over a measured time, whichever gateway takes', async () => {
    const setting = { perSecond: 10, burst: 5 };
    const gateways = bucketsOf(name('steady'), setting);
    const floodMs = 1500;
    let taken = 0;
    let attempts = 0;
    let longestGapMs = 0;
    let lastAttemptStartedMs = 0;
    let firstTakenMs = 0;
    const startedMs = performance.now(); // before the bucket's first take: the outer bound
    for (;;) {
      const attemptStartedMs = performance.now();
      if (attempts > 0) longestGapMs = Math.max(longestGapMs, attemptStartedMs - lastAttemptStartedMs);
      if (attemptStartedMs - startedMs >= floodMs) break;
      lastAttemptStartedMs = attemptStartedMs;
      const { refused } = await takeOne(gateways[attempts % gateways.length]!, 'org-1');
      if (attempts === 0) firstTakenMs = performance.now(); // after the first take: the inner bound
      attempts += 1;
      if (!refused) taken += 1;
      await sleep(2);
    }
    const outerSeconds = (performance.now() - startedMs) / 1000;
    const innerSeconds = (lastAttemptStartedMs - firstTakenMs) / 1000;
    // The bucket's clock ran between its first and last take: more than inner, less than outer.
    const most = setting.burst + Math.floor(setting.perSecond * outerSeconds);
    // Fewer only if tokens were lost at the end, or to a bucket that filled up during a pause of the machine.
    const overflowed = longestGapMs > 450 ? Math.ceil((setting.perSecond * longestGapMs) / 1000) : 0;
    const least = setting.burst + Math.floor(setting.perSecond * innerSeconds) - 1 - overflowed;
    console.log(`${_place}: ${taken} taken of ${attempts} in ${outerSeconds.toFixed(3)} s (inner ${innerSeconds.toFixed(3)} s; longest gap ${longestGapMs.toFixed(0)} ms): between ${least} and ${most}`);
    expect(taken).toBeLessThanOrEqual(most);
    expect(taken).toBeGreaterThanOrEqual(least);
    expect(attempts - taken).toBeGreaterThan(0);
  });

  it('answers within the bucket with RateLimit and RateLimit-Policy, and past it 429 with Retry-After until the next token, counted', async () => {
    const bucketName = name('headers');
    const gateways = bucketsOf(bucketName, { perSecond: 1, burst: 2 });
    const policy = `"${bucketName}";q=2;w=2`;
    const before = await rateLimitedCount(bucketName);
    const first = await takeOne(gateways[0]!, 'org-1');
    expect(first).toEqual({ refused: false, headers: { 'ratelimit-policy': policy, ratelimit: `"${bucketName}";r=1;t=1` } });
    const second = await takeOne(gateways[gateways.length - 1]!, 'org-1');
    expect(second).toEqual({ refused: false, headers: { 'ratelimit-policy': policy, ratelimit: `"${bucketName}";r=0;t=2` } });
    const third = await takeOne(gateways[0]!, 'org-1');
    expect(third).toEqual({ refused: true, headers: { 'ratelimit-policy': policy, ratelimit: `"${bucketName}";r=0;t=1`, 'retry-after': '1' } });
    await expect(gateways[0]!.take('org-1', answer().res)).rejects.toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/rate limit\): retry after 1 s$/) });
    expect((await rateLimitedCount(bucketName)) - before).toBe(2);
    // Another key has its own bucket.
    expect((await takeOne(gateways[0]!, 'org-2')).refused).toBe(false);
  });

  it('holds a rate under one a second (0.1: a token every 10 s)', async () => {
    const bucketName = name('slow');
    const gateways = bucketsOf(bucketName, { perSecond: 0.1, burst: 2 });
    const answers = [];
    for (let n = 0; n < 3; n += 1) answers.push(await takeOne(gateways[n % gateways.length]!, 'org-1'));
    expect(answers).toEqual([
      { refused: false, headers: { 'ratelimit-policy': `"${bucketName}";q=2;w=20`, ratelimit: `"${bucketName}";r=1;t=10` } },
      { refused: false, headers: { 'ratelimit-policy': `"${bucketName}";q=2;w=20`, ratelimit: `"${bucketName}";r=0;t=20` } },
      { refused: true, headers: { 'ratelimit-policy': `"${bucketName}";q=2;w=20`, ratelimit: `"${bucketName}";r=0;t=10`, 'retry-after': '10' } },
    ]);
  });
});

describe('rate buckets in Redis', () => {
  it('keep one key a bucket under formcast:rate:<name> (after the client keyPrefix), expiring when the bucket is full again', async () => {
    const client = new Redis(redisUrl, { keyPrefix: 'formcast-test:' });
    const plain = new Redis(redisUrl);
    const bucketName = `expiry-${process.pid}-${Date.now()}`;
    try {
      const bucket = new RateBucket(bucketName, { perSecond: 2, burst: 4 }, { kind: 'redis', client });
      for (let n = 0; n < 3; n += 1) await bucket.take('org-1', answer().res);
      const keys = await plain.keys(`*${bucketName}*`);
      expect(keys).toEqual([`formcast-test:formcast:rate:${bucketName}:tat:org-1`]);
      // Three tokens at 2 a second: full again in 1.5 s.
      const ttl = await plain.pttl(keys[0]!);
      expect(ttl).toBeGreaterThan(1000);
      expect(ttl).toBeLessThanOrEqual(1500);
    } finally {
      const keys = await plain.keys(`*${bucketName}*`);
      if (keys.length > 0) await plain.del(...keys);
      await Promise.all([client.quit(), plain.quit()]);
    }
  });

  describe('a large bucket, taken a lease at a time', () => {
    // 1,000 a second, 200 at once: a lease of 20 (a tenth of a second's rate, a tenth of the bucket).
    const setting = { perSecond: 1000, burst: 200 };
    let clients: Redis[];
    let bucketName: string;
    /** The script runs each client made (each a real EVALSHA round trip), and those that took tokens. */
    let scriptRuns: number[];
    let takingRuns: number[];

    beforeEach(() => {
      clients = [new Redis(redisUrl), new Redis(redisUrl)];
      bucketName = `lease-${process.pid}-${Date.now()}`;
      scriptRuns = clients.map(() => 0);
      takingRuns = clients.map(() => 0);
    });
    afterEach(async () => {
      const keys = await clients[0]!.keys(`formcast:rate:${bucketName}:*`);
      if (keys.length > 0) await clients[0]!.del(...keys);
      await Promise.all(clients.map((client) => client.quit()));
    });

    /** A gateway's bucket on client `n`, its script runs counted. */
    function gateway(n: number): RateBucket {
      const bucket = new RateBucket(bucketName, setting, { kind: 'redis', client: clients[n]! });
      const client = clients[n] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const run = client['formcastTokenBucketTakeSome']!;
      client['formcastTokenBucketTakeSome'] = (...args: unknown[]) => {
        scriptRuns[n]! += 1;
        return run.apply(clients[n], args).then((answer) => {
          if ((answer as number[])[0]! > 0) takingRuns[n]! += 1;
          return answer;
        });
      };
      return bucket;
    }

    it('asks Redis once a lease, and takes that come meanwhile wait for its answer', async () => {
      const bucket = gateway(0);
      // 20 at once: one script run between them.
      const first = await Promise.all(Array.from({ length: 20 }, () => takeOne(bucket, 'org-1')));
      expect(first.every((take) => !take.refused)).toBe(true);
      expect(scriptRuns[0]).toBe(1);
      // One after another: a run every 20.
      for (let n = 0; n < 100; n += 1) expect((await takeOne(bucket, 'org-1')).refused).toBe(false);
      expect(scriptRuns[0]).toBeLessThanOrEqual(1 + 6);
      // What is left counts the tokens this gateway holds: 200 at once, 120 taken, less than a few ms refilled.
      const left = Number(/r=(\d+)/.exec((await takeOne(bucket, 'org-1')).headers['ratelimit']!)![1]);
      expect(left).toBeGreaterThanOrEqual(200 - 121);
      expect(left).toBeLessThan(200);
    });

    it('never lets two gateways take more than the bucket over a measured time, nor fewer than it less the leases they hold', async () => {
      const gateways = [gateway(0), gateway(1)];
      const floodMs = 600;
      let taken = 0;
      let attempts = 0;
      const startedMs = performance.now();
      let firstAnsweredMs = 0;
      let lastStartedMs = 0;
      // Each gateway 10 takes at once, over and over: well past 1,000 a second.
      await Promise.all(
        gateways.map(async (bucket) => {
          while (performance.now() - startedMs < floodMs) {
            lastStartedMs = performance.now();
            const takes = await Promise.all(Array.from({ length: 10 }, () => takeOne(bucket, 'org-1')));
            firstAnsweredMs ||= performance.now();
            attempts += takes.length;
            taken += takes.filter((take) => !take.refused).length;
          }
        }),
      );
      const outerSeconds = (performance.now() - startedMs) / 1000;
      const innerSeconds = (lastStartedMs - firstAnsweredMs) / 1000;
      // At most the bucket over the time: every token spent was leased from it within it.
      const most = setting.burst + Math.floor(setting.perSecond * outerSeconds);
      // At least: less the leases each gateway held at the end, unspent.
      const least = setting.burst + Math.floor(setting.perSecond * innerSeconds) - 2 * 20 - 1;
      console.log(`two gateways, leases of 20: ${taken} taken of ${attempts} in ${outerSeconds.toFixed(3)} s (inner ${innerSeconds.toFixed(3)}), between ${least} and ${most}; script runs ${scriptRuns.join(' + ')}, of which took tokens ${takingRuns.join(' + ')}`);
      expect(taken).toBeLessThanOrEqual(most);
      expect(taken).toBeGreaterThanOrEqual(least);
      // Redis was asked for tokens, and after a refusal only once the next token was due: at
      // most once a token taken, and once a token's time for each gateway.
      const tokenTimes = Math.ceil(setting.perSecond * outerSeconds) + 1;
      expect(scriptRuns[0]! + scriptRuns[1]!).toBeLessThanOrEqual(taken + 2 * tokenTimes);
      expect(attempts).toBeGreaterThan(taken);
    });
  });

  it('falls back to the process bucket when Redis does not answer', async () => {
    // Nothing listens on port 1; without an offline queue each command fails at once, as the gateway's client does.
    const client = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => undefined);
    try {
      const bucket = new RateBucket(`away-${process.pid}`, { perSecond: 1, burst: 2 }, { kind: 'redis', client });
      const refused = [];
      for (let n = 0; n < 3; n += 1) refused.push((await takeOne(bucket, 'org-1')).refused);
      expect(refused).toEqual([false, false, true]);
    } finally {
      client.disconnect();
    }
  });
});
