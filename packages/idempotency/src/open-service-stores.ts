import { storeSettingsOf, type ProcessStoreSettings, type StoreSettings } from '@formcast/storage';
import type { IdempotencyStore } from './idempotency-store';
import { openIdempotencyStore } from './open-idempotency-store';

export interface ServiceStores<S> {
  store: S;
  idempotencyKeys: IdempotencyStore;
}

/**
 * A service's store and its Idempotency-Keys, from the process's settings: both in the
 * service's database at MONGO_URL when set, else in `<DATA_DIR>/<service>.sqlite` and
 * `<DATA_DIR>/<service>-idempotency.sqlite`. When the keys do not open, the store is closed again.
 */
export async function openServiceStores<S extends { close(): Promise<void> }>(
  settings: ProcessStoreSettings,
  service: string,
  openStore: (settings: StoreSettings) => Promise<S>,
): Promise<ServiceStores<S>> {
  const store = await openStore(storeSettingsOf(settings, service));
  try {
    const idempotencyKeys = await openIdempotencyStore({ ...storeSettingsOf(settings, `${service}-idempotency`), mongoDbName: service });
    return { store, idempotencyKeys };
  } catch (error) {
    await store.close();
    throw error;
  }
}
