import { connectMongo } from '@formcast/storage';
import { MongoPushStore } from './mongo-push-store';
import type { PushStore } from './push-store';
import { SqlitePushStore } from './sqlite-push-store';

export interface PushStoreSettings {
  /** MongoDB (a replica set) when set; otherwise SQLite in `sqliteFile`. */
  mongoUrl?: string | undefined;
  /** The push service's own database on that server. */
  mongoDbName?: string;
  /** Build indexes at start (see `connectMongo`); off in production, where `syncIndexes()` runs at deploy. */
  mongoAutoIndex?: boolean;
  /** e.g. `join(DATA_DIR, 'push.sqlite')`; created with its folder if missing. */
  sqliteFile: string;
}

/** The adapter the settings ask for, connected and with its schema in place. */
export async function openPushStore(settings: PushStoreSettings): Promise<PushStore> {
  if (settings.mongoUrl) {
    const connection = await connectMongo(settings.mongoUrl, {
      dbName: settings.mongoDbName ?? 'push',
      autoIndex: settings.mongoAutoIndex ?? true,
    });
    return new MongoPushStore(connection);
  }
  return new SqlitePushStore(settings.sqliteFile);
}
