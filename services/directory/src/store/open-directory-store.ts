import { openStore, type StoreSettings } from '@formcast/storage';
import type { DirectoryStore } from './directory-store';
import { SqliteDirectoryStore } from './sqlite-directory-store';

export type DirectoryStoreSettings = StoreSettings;

/** The adapter the settings ask for, connected and with its schema in place. */
export function openDirectoryStore(settings: DirectoryStoreSettings): Promise<DirectoryStore> {
  return openStore<DirectoryStore>(settings, {
    mongoDbName: 'directory',
    sqlite: (file) => new SqliteDirectoryStore(file),
    mongo: (connection) => {
      const { MongoDirectoryStore } = require('./mongo-directory-store') as typeof import('./mongo-directory-store');
      return new MongoDirectoryStore(connection);
    },
  });
}
