export * from './directory-store';
export { SqliteDirectoryStore } from './sqlite-directory-store';
export { directoryMigrations } from './sqlite-migrations';
export { MongoDirectoryStore } from './mongo-directory-store';
export { openDirectoryStore, type DirectoryStoreSettings } from './open-directory-store';
