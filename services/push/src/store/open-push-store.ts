import { openStore, type StoreSettings } from '@formcast/storage';
import type { PushStore } from './push-store';
import { SqlitePushStore } from './sqlite-push-store';

export type PushStoreSettings = StoreSettings;

/** The adapter the settings ask for, connected and with its schema in place. */
export function openPushStore(settings: PushStoreSettings): Promise<PushStore> {
  return openStore<PushStore>(settings, {
    mongoDbName: 'push',
    sqlite: (file) => new SqlitePushStore(file),
    mongo: (connection) => {
      const { MongoPushStore } = require('./mongo-push-store') as typeof import('./mongo-push-store');
      return new MongoPushStore(connection);
    },
  });
}
