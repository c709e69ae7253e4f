import type { Logger } from '@formcast/platform';
import type { BadgeStore, BadgeStoreOptions } from './badge-store';
import { SqliteBadgeStore } from './sqlite-badge-store';

export interface BadgeStoreSettings extends BadgeStoreOptions {
  /** Redis when set; otherwise SQLite in `sqliteFile`. */
  redisUrl?: string | undefined;
  /** e.g. `join(DATA_DIR, 'notifier.sqlite')`; created with its folder if missing. */
  sqliteFile: string;
  /** Redis only: put before every key (default `formcast:badges:`). */
  redisKeyPrefix?: string;
  logger?: Logger;
}

/** The adapter the settings ask for, connected and ready. */
export async function openBadgeStore({ redisUrl, sqliteFile, redisKeyPrefix, logger, ...options }: BadgeStoreSettings): Promise<BadgeStore> {
  if (redisUrl) {
    // Loaded only here: a process keeping badges in SQLite never loads ioredis.
    const { RedisBadgeStore } = loadRedisAdapter();
    return RedisBadgeStore.open({ url: redisUrl, keyPrefix: redisKeyPrefix, logger, ...options });
  }
  return new SqliteBadgeStore(sqliteFile, options);
}

/**
 * `require`, not `import()`: tsc keeps `import()` as Node's own in this CommonJS output, where a
 * relative path needs its `.js` extension, which jest (running the `.ts` sources) cannot resolve.
 */
function loadRedisAdapter(): typeof import('./redis-badge-store') {
  return require('./redis-badge-store') as typeof import('./redis-badge-store');
}
