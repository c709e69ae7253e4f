import type { Redis } from 'ioredis';
import { MemoryTokenBucket, refillMicros, ROUNDING_SLACK_TOKENS, type BucketSetting, type TakeVerdict, type TokenBucketStore } from './token-bucket';
import { leaseSize, TokenLeases } from './token-lease';

/**
 * takeAt (token-bucket.ts) in Redis, atomic, on Redis's own clock (TIME), so every gateway
 * replica takes from the one bucket whatever its own clock says. The key holds the
 * theoretical arrival time (µs) and expires when the bucket is full again: no key, full bucket.
 * KEYS[1]: the bucket's key. ARGV: µs a token takes to come back, the bucket's size, the slack
 * (tokens), the tokens wanted (at least one is needed; up to that many are taken, as held).
 * Returns the tokens taken (0: refused), whole tokens left, µs until full (taken) or until
 * one token (refused).
 */
const takeScript = `
local interval = tonumber(ARGV[1])
local full = tonumber(ARGV[2]) * interval
local slack = tonumber(ARGV[3])
local wanted = tonumber(ARGV[4])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local stored = redis.call('GET', KEYS[1])
local base = now
if stored then base = math.max(tonumber(stored) or now, now) end
local held = (full - (base - now)) / interval + slack
if held < 1 then
  return {0, 0, math.ceil(base + interval - full - now)}
end
local taken = math.min(wanted, math.floor(held))
local tat = base + taken * interval
redis.call('SET', KEYS[1], string.format('%.17g', tat), 'PX', math.max(1, math.ceil((tat - now) / 1000)))
return {taken, math.floor(held - taken), math.ceil(tat - now)}
`;

// A name of its own: a replica of before (one token a take, three arguments) keeps its own script during a rolling deploy.
const commandName = 'formcastTokenBucketTakeSome';

type TakeCommand = (key: string, interval: string, burst: string, slack: string, wanted: string) => Promise<[number, number, number]>;
type WithTakeCommand = Redis & { [commandName]: TakeCommand };

/**
 * The bucket in Redis (shared by every gateway replica), run as one script by EVALSHA. The
 * client may carry a keyPrefix: ioredis puts it before the key. A Redis that fails a take
 * (away, no offline queue) leaves it to the process's own bucket, as before.
 *
 * A large bucket (an organization's) is taken from a lease at a time (token-lease.ts): one
 * script run reserves up to a tenth of a second of its rate for this replica, spent here
 * without a round trip; takes that come while one is asked wait for its answer. A small
 * bucket (a device's) asks Redis every take. After a refusal, takes of the key are refused
 * here until the bucket's next token.
 */
export class RedisTokenBucket implements TokenBucketStore {
  private readonly client: WithTakeCommand;
  private readonly fallback: MemoryTokenBucket;
  private readonly lease: number;
  private readonly leases = new TokenLeases();
  /** Per key, the take asking Redis now: others for the key wait for its lease. */
  private readonly asking = new Map<string, Promise<TakeVerdict>>();

  constructor(
    client: Redis,
    private readonly keyPrefix: string,
    private readonly setting: BucketSetting,
  ) {
    this.client = client as WithTakeCommand;
    // Once a client: every bucket of the gateway shares it.
    if (typeof (this.client as { [commandName]?: TakeCommand })[commandName] !== 'function') client.defineCommand(commandName, { numberOfKeys: 1, lua: takeScript });
    this.fallback = new MemoryTokenBucket(setting);
    this.lease = leaseSize(setting);
  }

  async take(key: string): Promise<TakeVerdict> {
    for (;;) {
      const emptyFor = this.leases.knownEmpty(key);
      if (emptyFor !== null) return { allowed: false, remaining: 0, waitMicros: emptyFor };
      if (this.lease === 1) return this.ask(key, 1);
      const held = this.leases.spend(key);
      if (held) return { allowed: true, ...held };
      const asking = this.asking.get(key);
      if (!asking) break;
      // Its answer is a lease to spend or a refusal to know: look again.
      await asking;
    }
    const asked = this.ask(key, this.lease).finally(() => this.asking.delete(key));
    this.asking.set(key, asked);
    return asked;
  }

  /** One script run wanting `wanted` tokens: one spent now, the rest held. */
  private async ask(key: string, wanted: number): Promise<TakeVerdict> {
    let answer: [number, number, number];
    const askedAtMs = performance.now();
    try {
      answer = await this.client[commandName](`${this.keyPrefix}:${key}`, String(refillMicros(this.setting)), String(this.setting.burst), String(ROUNDING_SLACK_TOKENS), String(wanted));
    } catch {
      return this.fallback.take(key);
    }
    const [taken, remaining, waitMicros] = answer;
    if (taken < 1) {
      this.leases.refused(key, waitMicros, askedAtMs);
      return { allowed: false, remaining: 0, waitMicros };
    }
    this.leases.hold(key, taken - 1, remaining, waitMicros, askedAtMs);
    return { allowed: true, remaining: remaining + taken - 1, waitMicros };
  }
}
