import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '@formcast/platform';
import { defaultTombstoneTtlMs, type BadgeChange, type BadgeDevice, type BadgeStore, type BadgeStoreOptions, type OneshotState } from './badge-store';
import type { DeviceSendGuard } from '../sender/device-send-guard';
import { recordOneshotScript } from './redis-badge-script';
import { claimSendRightScript, releaseSendRightScript } from './redis-send-right-script';

export interface RedisBadgeStoreOptions extends BadgeStoreOptions {
  /** `redis://…` or `rediss://…`. */
  url: string;
  /** Put before every key (default `formcast:badges:`); must not contain `{` or `}`. */
  keyPrefix?: string;
  /** How long a device's send right lasts unless released (default 30 s; see DeviceSendGuard). */
  sendRightMs?: number;
  logger?: Logger;
}

/** The command `defineCommand` adds to the client. */
type BadgeRedis = Redis & {
  recordOneshot(
    outstandingKey: string,
    endedKey: string,
    announcedKey: string,
    state: OneshotState,
    oneshotId: number,
    now: number,
    ttlMs: number,
    announce: '1' | '0',
  ): Promise<[number, number, number]>;
  claimSendRight(rightKey: string, outstandingKey: string, token: string, ttlMs: number): Promise<number>;
  releaseSendRight(rightKey: string, token: string): Promise<number>;
};

/**
 * Badges in Redis (distributed mode): a set of outstanding oneshot ids per device and a
 * sorted set of tombstones, changed by one Lua script (see redis-badge-script.ts). Commands
 * issued in the same tick travel in one pipeline (ioredis auto-pipelining), so a burst of
 * events costs one round trip, not one per event.
 */
export class RedisBadgeStore implements BadgeStore, DeviceSendGuard {
  private readonly redis: BadgeRedis;
  private readonly keyPrefix: string;
  private readonly tombstoneTtlMs: number;
  private readonly now: () => number;
  private readonly sendRightMs: number;
  /** Whose send rights are whose: one token per store, so per process. */
  private readonly token = randomUUID();
  private closing: Promise<void> | null = null;

  private constructor(redis: Redis, options: RedisBadgeStoreOptions) {
    redis.defineCommand('recordOneshot', { numberOfKeys: 3, lua: recordOneshotScript });
    redis.defineCommand('claimSendRight', { numberOfKeys: 2, lua: claimSendRightScript });
    redis.defineCommand('releaseSendRight', { numberOfKeys: 1, lua: releaseSendRightScript });
    this.redis = redis as BadgeRedis;
    this.keyPrefix = options.keyPrefix ?? 'formcast:badges:';
    this.tombstoneTtlMs = options.tombstoneTtlMs ?? defaultTombstoneTtlMs;
    this.now = options.now ?? Date.now;
    this.sendRightMs = options.sendRightMs ?? 30_000;
  }

  /** Connects (failing fast when Redis cannot be reached) and returns the store. */
  static async open(options: RedisBadgeStoreOptions): Promise<RedisBadgeStore> {
    if (/[{}]/.test(options.keyPrefix ?? '')) throw new Error('The badge key prefix must not contain { or }');
    let connected = false;
    const redis = new Redis(options.url, {
      lazyConnect: true,
      enableAutoPipelining: true,
      connectionName: 'formcast-notifier',
      // Fail fast at start; once connected, reconnect with backoff (commands wait meanwhile).
      retryStrategy: (attempt) => (connected ? Math.min(attempt * 100, 2000) : null),
    });
    redis.on('error', (err: Error) => options.logger?.warn({ err }, 'redis connection error'));
    try {
      await redis.connect();
      connected = true;
    } catch (error) {
      // With no retries before the first connection, ioredis has given up already ('end').
      if (redis.status !== 'end') redis.disconnect();
      throw new Error(`Cannot reach Redis for badges (REDIS_URL): ${(error as Error).message}`, { cause: error });
    }
    return new RedisBadgeStore(redis, options);
  }

  /** A device's keys share the hash tag `{device:<org>:<device>}`. */
  keysOf(device: BadgeDevice): { outstanding: string; ended: string; announced: string; sendRight: string } {
    const tag = `${this.keyPrefix}{device:${device.orgId}:${device.deviceId}}`;
    return { outstanding: `${tag}:outstanding`, ended: `${tag}:ended`, announced: `${tag}:announced`, sendRight: `${tag}:sending` };
  }

  async record(device: BadgeDevice, oneshotId: number, state: OneshotState, announce = false): Promise<BadgeChange> {
    const keys = this.keysOf(device);
    const [badge, outstanding, announced] = await this.redis.recordOneshot(
      keys.outstanding,
      keys.ended,
      keys.announced,
      state,
      oneshotId,
      this.now(),
      this.tombstoneTtlMs,
      announce ? '1' : '0',
    );
    return { badge, outstanding: outstanding === 1, announce: announced === 1 };
  }

  async releaseAnnouncement(device: BadgeDevice, oneshotId: number): Promise<void> {
    await this.redis.zrem(this.keysOf(device).announced, String(oneshotId));
  }

  async badge(device: BadgeDevice): Promise<number> {
    return this.redis.scard(this.keysOf(device).outstanding);
  }

  sendGuard(): DeviceSendGuard {
    return this;
  }

  async claim(devices: BadgeDevice[]): Promise<Array<number | null>> {
    const badges = await Promise.all(
      devices.map((device) => {
        const keys = this.keysOf(device);
        return this.redis.claimSendRight(keys.sendRight, keys.outstanding, this.token, this.sendRightMs);
      }),
    );
    return badges.map((badge) => (badge >= 0 ? badge : null));
  }

  async release(devices: BadgeDevice[]): Promise<void> {
    await Promise.all(devices.map((device) => this.redis.releaseSendRight(this.keysOf(device).sendRight, this.token)));
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  close(): Promise<void> {
    this.closing ??= this.redis.quit().then(
      () => undefined,
      () => this.redis.disconnect(),
    );
    return this.closing;
  }
}
