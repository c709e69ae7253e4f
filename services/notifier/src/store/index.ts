export * from './badge-store';
export { RedisBadgeStore, type RedisBadgeStoreOptions } from './redis-badge-store';
export { SqliteBadgeStore } from './sqlite-badge-store';
export { badgeMigrations } from './sqlite-migrations';
export { openBadgeStore, type BadgeStoreSettings } from './open-badge-store';
