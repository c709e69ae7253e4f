export * from './idempotency-store';
export { decideClaim, keyExpired, type KeyRecord, type ClaimDecision } from './claim-decision';
export { SqliteIdempotencyStore, migrateIdempotency, idempotencyMigrations } from './sqlite-idempotency-store';
export { SqliteKeyTable } from './sqlite-key-table';
export { idempotent, answerFound, isKeptRefusal, mismatchMessage, stillRunningMessage, type IdempotentOptions } from './idempotent';
export { idempotentInStore, type KeyedAnswer, type KeyedRun } from './keys-in-store';
export { withIdempotencyKeys } from './idempotent-commands';
export { openIdempotencyStore, type IdempotencyStoreSettings } from './open-idempotency-store';
export { openServiceStores, type ServiceStores } from './open-service-stores';
export type { PruneOptions } from './prune-schedule';
// The MongoDB adapter is not re-exported (only its types): it loads mongoose. openIdempotencyStore
// loads it on demand; a service's own Mongo adapter, which loads mongoose anyway, through loadMongoIdempotency.
export type { MongoIdempotencyStore, MongoIdempotencyStoreOptions } from './mongo-idempotency-store';
export type { MongoKeyCollection, MongoKeyDecision } from './mongo-key-collection';
export { loadMongoIdempotency } from './load-mongo-idempotency';
