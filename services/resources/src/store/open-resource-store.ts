import { openStore, type StoreSettings } from '@formcast/storage';
import type { ResourceStore } from './resource-store';
import { SqliteResourceStore } from './sqlite-resource-store';

export type ResourceStoreSettings = StoreSettings;

/** The adapter the settings ask for, connected and with its schema in place. */
export function openResourceStore(settings: ResourceStoreSettings): Promise<ResourceStore> {
  return openStore<ResourceStore>(settings, {
    mongoDbName: 'resources',
    sqlite: (file) => new SqliteResourceStore(file),
    mongo: (connection) => {
      const { MongoResourceStore } = require('./mongo-resource-store') as typeof import('./mongo-resource-store');
      return new MongoResourceStore(connection);
    },
  });
}
