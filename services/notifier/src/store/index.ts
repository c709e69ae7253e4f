export * from './badge-store';
// RedisBadgeStore is not exported here (its options type is): importing it loads ioredis.
// openBadgeStore loads it when REDIS_URL is set; its tests import './redis-badge-store' directly.
export type { RedisBadgeStoreOptions } from './redis-badge-store';
export { SqliteBadgeStore } from './sqlite-badge-store';
export { badgeMigrations } from './sqlite-migrations';
export { openBadgeStore, type BadgeStoreSettings } from './open-badge-store';
