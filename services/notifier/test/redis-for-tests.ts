import type { Redis } from 'ioredis';

/**
 * The Redis of this machine (`REDIS_URL`, else redis://127.0.0.1:6379), which `.ci/run`
 * starts when it is not running, as it does RabbitMQ for the bus suites.
 */
export function redisUrlForTests(): string {
  return process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';
}

/** Deletes every key starting with `prefix` (one key at a time: they may span hash slots). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) await redis.unlink(key);
  } while (cursor !== '0');
}
