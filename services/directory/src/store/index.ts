export * from './directory-store';
export { SqliteDirectoryStore } from './sqlite-directory-store';
export { directoryMigrations } from './sqlite-migrations';
// MongoDirectoryStore is not exported here: importing it loads mongoose. openDirectoryStore loads
// it when MONGO_URL is set; its tests import './mongo-directory-store' directly.
export { openDirectoryStore } from './open-directory-store';
