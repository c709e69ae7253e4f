import type { Redis } from 'ioredis';
import { MemoryTokenBucket, refillMicros, ROUNDING_SLACK_TOKENS, type BucketSetting, type TakeVerdict, type TokenBucketStore } from './token-bucket';

/**
 * takeAt (token-bucket.ts) in Redis, atomic, on Redis's own clock (TIME), so every gateway
 * replica takes from the one bucket whatever its own clock says. The key holds the
 * theoretical arrival time (µs) and expires when the bucket is full again: no key, full bucket.
 * KEYS[1]: the bucket's key. ARGV: µs a token takes to come back, the bucket's size, the slack (tokens).
 * Returns allowed (1/0), whole tokens left, µs until full (allowed) or until one token (refused).
 */
const takeScript = `
local interval = tonumber(ARGV[1])
local full = tonumber(ARGV[2]) * interval
local slack = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local stored = redis.call('GET', KEYS[1])
local base = now
if stored then base = math.max(tonumber(stored) or now, now) end
local held = (full - (base - now)) / interval + slack
if held < 1 then
  return {0, 0, math.ceil(base + interval - full - now)}
end
local tat = base + interval
redis.call('SET', KEYS[1], string.format('%.17g', tat), 'PX', math.max(1, math.ceil((tat - now) / 1000)))
return {1, math.floor(held - 1), math.ceil(tat - now)}
`;

const commandName = 'formcastTokenBucketTake';

type TakeCommand = (key: string, interval: string, burst: string, slack: string) => Promise<[number, number, number]>;
type WithTakeCommand = Redis & { [commandName]: TakeCommand };

/**
 * The bucket in Redis (shared by every gateway replica), run as one script by EVALSHA. The
 * client may carry a keyPrefix: ioredis puts it before the key. A Redis that fails a take
 * (away, no offline queue) leaves it to the process's own bucket, as before.
 */
export class RedisTokenBucket implements TokenBucketStore {
  private readonly client: WithTakeCommand;
  private readonly fallback: MemoryTokenBucket;

  constructor(
    client: Redis,
    private readonly keyPrefix: string,
    private readonly setting: BucketSetting,
  ) {
    this.client = client as WithTakeCommand;
    // Once a client: every bucket of the gateway shares it.
    if (typeof (this.client as { [commandName]?: TakeCommand })[commandName] !== 'function') client.defineCommand(commandName, { numberOfKeys: 1, lua: takeScript });
    this.fallback = new MemoryTokenBucket(setting);
  }

  async take(key: string): Promise<TakeVerdict> {
    let answer: [number, number, number];
    try {
      answer = await this.client[commandName](`${this.keyPrefix}:${key}`, String(refillMicros(this.setting)), String(this.setting.burst), String(ROUNDING_SLACK_TOKENS));
    } catch {
      return this.fallback.take(key);
    }
    const [allowed, remaining, waitMicros] = answer;
    return { allowed: allowed === 1, remaining, waitMicros };
  }
}
