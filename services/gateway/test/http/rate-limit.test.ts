import type { Response } from 'express';
import { Redis } from 'ioredis';
import { isAppError } from '@formcast/platform';
import { RateBucket, type RateLimitStore } from '../../src/http/rate-limit';

const redisUrl = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';

/** The headers a bucket sets, on a stand-in for express's Response (only setHeader is used). */
function answer() {
  const headers: Record<string, string> = {};
  return { headers, res: { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value) } as unknown as Response };
}

async function takeAll(bucket: RateBucket, key: string, times: number): Promise<number> {
  let refused = 0;
  for (let n = 0; n < times; n += 1) {
    try {
      await bucket.take(key, answer().res);
    } catch (error) {
      if (!isAppError(error) || error.code !== 'rate_limited') throw error;
      refused += 1;
    }
  }
  return refused;
}

describe('rate buckets', () => {
  it('in memory: refuses past the steady rate and the burst, with Retry-After and the IETF RateLimit headers', async () => {
    const bucket = new RateBucket(`memory-${process.pid}`, { perSecond: 1, burst: 4 }, { kind: 'memory' });
    expect(await takeAll(bucket, 'org-1', 5)).toBe(0);
    const { headers, res } = answer();
    await expect(bucket.take('org-1', res)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(Number(headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(headers['ratelimit-policy']).toBe(`"memory-${process.pid}";q=1;w=1, "memory-${process.pid}-burst";q=4;w=4`);
    expect(headers['ratelimit']).toMatch(/;r=0;t=\d+$/);
    // Another key has its own bucket.
    expect(await takeAll(bucket, 'org-2', 5)).toBe(0);
  });

  it('in Redis: two gateways share one bucket per key', async () => {
    const clients = [new Redis(redisUrl), new Redis(redisUrl)];
    const name = `shared-${process.pid}-${Date.now()}`;
    try {
      const stores: RateLimitStore[] = clients.map((client) => ({ kind: 'redis', client }));
      const [first, second] = stores.map((store) => new RateBucket(name, { perSecond: 1, burst: 6 }, store));
      // 7 tokens in all (1 steady + 6 burst): four taken by each gateway leave one refused.
      const refused = (await takeAll(first!, 'org-1', 4)) + (await takeAll(second!, 'org-1', 4));
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(refused).toBeLessThanOrEqual(2); // a second may have passed, refilling one
      expect(await clients[0]!.keys(`formcast:rate:${name}*`)).not.toEqual([]);
    } finally {
      const keys = await clients[0]!.keys(`formcast:rate:${name}*`);
      if (keys.length > 0) await clients[0]!.del(...keys);
      await Promise.all(clients.map((client) => client.quit()));
    }
  });
});
