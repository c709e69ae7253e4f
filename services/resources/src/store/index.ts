export * from './resource-store';
export { SqliteResourceStore } from './sqlite-resource-store';
export { resourceMigrations } from './sqlite-migrations';
// MongoResourceStore and resourceFilesBucket are not exported here: importing them loads
// mongoose. openResourceStore loads them when MONGO_URL is set; their tests import
// './mongo-resource-store' directly.
export { openResourceStore } from './open-resource-store';
