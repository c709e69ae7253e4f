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
