export * from './push-store';
export { SqlitePushStore, type SqlitePushStoreOptions } from './sqlite-push-store';
export { pushMigrations } from './sqlite-migrations';
export { MongoPushStore, type MongoPushStoreOptions } from './mongo-push-store';
export { openPushStore, type PushStoreSettings } from './open-push-store';
