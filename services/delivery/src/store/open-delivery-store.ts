import { openStore, type StoreSettings } from '@formcast/storage';
import type { SecretCipher } from '../secrets';
import type { DeliveryStore } from './delivery-store';
import { SqliteDeliveryStore } from './sqlite-delivery-store';

/** The adapter the settings ask for (MongoDB's loaded only then), connected and with its schema in place; `cipher` seals signing secrets. */
export function openDeliveryStore(settings: StoreSettings, cipher: SecretCipher): Promise<DeliveryStore> {
  return openStore<DeliveryStore>(settings, {
    sqlite: (file) => new SqliteDeliveryStore(file, cipher),
    mongo: (connection) => {
      const { MongoDeliveryStore } = require('./mongo-delivery-store') as typeof import('./mongo-delivery-store');
      return new MongoDeliveryStore(connection, cipher);
    },
  });
}
