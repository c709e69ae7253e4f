import { openStore, type StoreSettings } from '@formcast/storage';
import type { ResourceStore } from './resource-store';
import { SqliteResourceStore } from './sqlite-resource-store';

/** The adapter the settings ask for (MongoDB's loaded only then), connected and with its schema in place. */
export function openResourceStore(settings: StoreSettings): Promise<ResourceStore> {
  return openStore<ResourceStore>(settings, {
    sqlite: (file) => new SqliteResourceStore(file),
    mongo: (connection) => {
      const { MongoResourceStore } = require('./mongo-resource-store') as typeof import('./mongo-resource-store');
      return new MongoResourceStore(connection);
    },
  });
}
