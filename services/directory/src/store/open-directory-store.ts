import { openStore, type StoreSettings } from '@formcast/storage';
import type { DirectoryStore } from './directory-store';
import { SqliteDirectoryStore } from './sqlite-directory-store';

/** The adapter the settings ask for (MongoDB's loaded only then), connected and with its schema in place. */
export function openDirectoryStore(settings: StoreSettings): Promise<DirectoryStore> {
  return openStore<DirectoryStore>(settings, {
    sqlite: (file) => new SqliteDirectoryStore(file),
    mongo: (connection) => {
      const { MongoDirectoryStore } = require('./mongo-directory-store') as typeof import('./mongo-directory-store');
      return new MongoDirectoryStore(connection);
    },
  });
}
