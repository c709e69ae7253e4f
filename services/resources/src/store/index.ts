export * from './resource-store';
export { SqliteResourceStore } from './sqlite-resource-store';
export { resourceMigrations } from './sqlite-migrations';
export { MongoResourceStore, resourceFilesBucket } from './mongo-resource-store';
export { openResourceStore, type ResourceStoreSettings } from './open-resource-store';
