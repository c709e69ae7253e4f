import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { recordRateLimited } from '@formcast/metrics';
import type { Settings } from '@formcast/platform';
import { AppError } from '@formcast/platform';
import { RedisTokenBucket } from './redis-token-bucket';
import { MemoryTokenBucket, type BucketSetting, type TokenBucketStore } from './token-bucket';

export type { BucketSetting } from './token-bucket';

/** The gateway's rate limits (RATE_LIMIT_* settings); `false` (RATE_LIMITS_ENABLED=false) limits nothing. */
export interface RateLimitSettings {
  organization: BucketSetting;
  device: BucketSetting;
  address: BucketSetting;
  enrollment: BucketSetting;
  /** Refused enrollment codes one client address may send per `windowSeconds`. */
  enrollmentFailures: { points: number; windowSeconds: number };
}

export function rateLimitSettings(settings: Settings): RateLimitSettings | false {
  if (!settings.RATE_LIMITS_ENABLED) return false;
  return {
    organization: { perSecond: settings.RATE_LIMIT_ORGANIZATION_PER_SECOND, burst: settings.RATE_LIMIT_ORGANIZATION_BURST },
    device: { perSecond: settings.RATE_LIMIT_DEVICE_PER_SECOND, burst: settings.RATE_LIMIT_DEVICE_BURST },
    address: { perSecond: settings.RATE_LIMIT_ADDRESS_PER_SECOND, burst: settings.RATE_LIMIT_ADDRESS_BURST },
    enrollment: { perSecond: settings.RATE_LIMIT_ENROLLMENT_PER_SECOND, burst: settings.RATE_LIMIT_ENROLLMENT_BURST },
    enrollmentFailures: { points: settings.RATE_LIMIT_ENROLLMENT_FAILURES, windowSeconds: settings.RATE_LIMIT_ENROLLMENT_FAILURES_WINDOW_SECONDS },
  };
}

/**
 * Where the buckets live: in the process (embedded mode, one gateway), or in Redis (an
 * ioredis client: the gateway alone with REDIS_URL), so every gateway replica takes from the
 * same buckets. A Redis that does not answer falls back to the process's own buckets.
 */
export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis };

/** The enrollment failures' fixed window (rate-limiter-flexible): not a bucket. */
function fixedWindowIn(store: RateLimitStore, options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
  if (store.kind === 'memory') return new RateLimiterMemory(options);
  return new RateLimiterRedis({ ...options, storeClient: store.client, insuranceLimiter: new RateLimiterMemory(options) });
}

function bucketIn(store: RateLimitStore, name: string, setting: BucketSetting): TokenBucketStore {
  if (store.kind === 'memory') return new MemoryTokenBucket(setting);
  // `:tat:` keeps these keys apart from rate-limiter-flexible's counters of before (formcast:rate:<name>:<key>).
  return new RedisTokenBucket(store.client, `formcast:rate:${name}:tat`, setting);
}

/**
 * One named token bucket (token-bucket.ts): `burst` tokens, refilled at `perSecond`; a take
 * needs a whole token. Its headers follow draft-ietf-httpapi-ratelimit-headers: the policy is
 * the bucket's size over the seconds it takes to fill.
 */
export class RateBucket {
  private readonly bucket: TokenBucketStore;
  private readonly policy: string;

  constructor(readonly name: string, setting: BucketSetting, store: RateLimitStore) {
    this.bucket = bucketIn(store, name, setting);
    this.policy = `"${name}";q=${setting.burst};w=${Math.max(1, Math.ceil(setting.burst / setting.perSecond))}`;
  }

  /** Takes a token for `key`; past the bucket, AppError('rate_limited') with Retry-After and the RateLimit headers set on `res`. */
  async take(key: string, res: Response): Promise<void> {
    const verdict = await this.bucket.take(key);
    res.setHeader('RateLimit-Policy', this.policy);
    if (verdict.allowed) {
      // t: the seconds until the bucket is full again.
      res.setHeader('RateLimit', `"${this.name}";r=${verdict.remaining};t=${Math.ceil(verdict.waitMicros / 1_000_000)}`);
      return;
    }
    // t and Retry-After: the seconds until one token is free (the draft: Retry-After no earlier than t).
    const seconds = Math.max(1, Math.ceil(verdict.waitMicros / 1_000_000));
    recordRateLimited(this.name);
    res.setHeader('Retry-After', String(seconds));
    res.setHeader('RateLimit', `"${this.name}";r=0;t=${seconds}`);
    throw new AppError('rate_limited', `Too many requests (${this.name} rate limit): retry after ${seconds} s`);
  }
}

/** The client's address as the gateway's socket sees it (behind a proxy: the proxy's). */
export function clientAddress(req: Request): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * Every bucket of the gateway, and the middleware taking from them. With limits off, each
 * middleware passes everything on.
 */
export class GatewayRateLimits {
  private readonly organization?: RateBucket;
  private readonly device?: RateBucket;
  private readonly address?: RateBucket;
  private readonly enrollment?: RateBucket;
  private readonly failures?: RateLimiterAbstract;
  private readonly failureLimit: number;

  constructor(settings: RateLimitSettings | false, store: RateLimitStore = { kind: 'memory' }) {
    this.failureLimit = settings ? settings.enrollmentFailures.points : 0;
    if (!settings) return;
    this.organization = new RateBucket('organization', settings.organization, store);
    this.device = new RateBucket('device', settings.device, store);
    this.address = new RateBucket('address', settings.address, store);
    this.enrollment = new RateBucket('enrollment', settings.enrollment, store);
    this.failures = fixedWindowIn(store, {
      keyPrefix: 'formcast:rate:enrollment-failures',
      points: settings.enrollmentFailures.points,
      duration: settings.enrollmentFailures.windowSeconds,
    });
  }

  /** `authenticate` (an API token's), then a token of the organization's bucket. */
  afterApiToken(authenticate: RequestHandler): RequestHandler {
    const bucket = this.organization;
    if (!bucket) return authenticate;
    return (req, res, next) => {
      const limited: NextFunction = (error?: unknown) => {
        if (error !== undefined) return next(error);
        bucket.take(String(req.context.orgId), res).then(() => next(), next);
      };
      // requireApiToken throws synchronously (401) or returns a promise: both reach express.
      return authenticate(req, res, limited);
    };
  }

  /** Device-side requests before authentication: the client address's bucket. */
  readonly deviceAddress: RequestHandler = (req, res, next) => {
    if (!this.address) return next();
    this.address.take(clientAddress(req), res).then(() => next(), next);
  };

  /** Device-side requests after authentication: the device's bucket. */
  readonly deviceItself: RequestHandler = (req, res, next) => {
    if (!this.device) return next();
    this.device.take(`${req.context.orgId}:${req.context.deviceId}`, res).then(() => next(), next);
  };

  /** Enrollment (POST /devices/enroll), before the code is checked: the address's buckets, and its refused codes so far. */
  readonly beforeEnrollment: RequestHandler = (req, res, next) => {
    if (!isEnrollment(req) || !this.address || !this.enrollment || !this.failures) return next();
    const address = clientAddress(req);
    const check = async () => {
      const refused = await this.failures!.get(address);
      if (refused !== null && refused.consumedPoints >= this.failureLimit) {
        const seconds = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
        recordRateLimited('enrollment_failures');
        res.setHeader('Retry-After', String(seconds));
        throw new AppError('rate_limited', `Too many refused enrollment codes from this address: retry after ${seconds} s`);
      }
      await this.address!.take(address, res);
      await this.enrollment!.take(address, res);
    };
    check().then(() => next(), next);
  };

  /** An error middleware after enrollment: a refused code (403, also a taken identifier) counts against the address. */
  readonly afterEnrollmentRefusal = (error: unknown, req: Request, _res: Response, next: NextFunction): void => {
    if (!this.failures || !isEnrollment(req) || !(error instanceof AppError) || error.code !== 'forbidden') return next(error);
    this.failures.penalty(clientAddress(req), 1).then(
      () => next(error),
      () => next(error),
    );
  };
}

function isEnrollment(req: Request): boolean {
  return req.method === 'POST' && /^\/devices\/enroll(\.json)?$/i.test(req.path);
}
