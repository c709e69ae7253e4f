import { openStore, type StoreSettings } from '@formcast/storage';
import type { PushStore } from './push-store';
import { SqlitePushStore } from './sqlite-push-store';

/** The adapter the settings ask for (MongoDB's loaded only then), connected and with its schema in place. */
export function openPushStore(settings: StoreSettings): Promise<PushStore> {
  return openStore<PushStore>(settings, {
    sqlite: (file) => new SqlitePushStore(file),
    mongo: (connection) => {
      const { MongoPushStore } = require('./mongo-push-store') as typeof import('./mongo-push-store');
      return new MongoPushStore(connection);
    },
  });
}
