import type * as RateLimiterFlexible from 'rate-limiter-flexible';

/**
 * The four parts of rate-limiter-flexible the gateway uses, each required by its own file:
 * the package's index requires every store it supports (Mongo, MySQL, Postgres, Dynamo,
 * Etcd, Prisma, Drizzle, Valkey, …, 36 files), ~6 MB of RSS in a fresh process where these
 * four take ~4 (issue 23). The types are the package's own.
 */
const part = <Name extends keyof typeof RateLimiterFlexible>(name: Name): (typeof RateLimiterFlexible)[Name] =>
  require(`rate-limiter-flexible/lib/${name}`) as (typeof RateLimiterFlexible)[Name];

export const RateLimiterMemory = part('RateLimiterMemory');
export const RateLimiterRedis = part('RateLimiterRedis');
export const BurstyRateLimiter = part('BurstyRateLimiter');
export const RateLimiterRes = part('RateLimiterRes');
