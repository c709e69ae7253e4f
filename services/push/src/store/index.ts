export * from './push-store';
export { SqlitePushStore, type SqlitePushStoreOptions } from './sqlite-push-store';
export { pushMigrations } from './sqlite-migrations';
// MongoPushStore is not exported here (its type options are): importing it loads mongoose.
// openPushStore loads it when MONGO_URL is set; its tests import './mongo-push-store' directly.
export type { MongoPushStoreOptions } from './mongo-push-store';
export { openPushStore } from './open-push-store';
export type { CommandWindowOptions } from './command-window';
export type { SubmissionImage, SubmissionImageStore } from './submission-image-store';
