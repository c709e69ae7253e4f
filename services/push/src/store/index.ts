export * from './push-store';
export { SqlitePushStore } from './sqlite-push-store';
export { pushMigrations } from './sqlite-migrations';
export { openPushStore, type PushStoreSettings } from './open-push-store';
