import { connectMongo } from '@formcast/storage';
import { MongoResourceStore } from './mongo-resource-store';
import type { ResourceStore } from './resource-store';
import { SqliteResourceStore } from './sqlite-resource-store';

export interface ResourceStoreSettings {
  /** MongoDB when set; otherwise SQLite in `sqliteFile`. */
  mongoUrl?: string | undefined;
  /** The service's own database on that server. */
  mongoDbName?: string;
  /** Build indexes at start (see `connectMongo`); off in production, where `syncIndexes()` runs at deploy. */
  mongoAutoIndex?: boolean;
  /** e.g. `join(DATA_DIR, 'resources.sqlite')`; created with its folder if missing. */
  sqliteFile: string;
}

/** The adapter the settings ask for, connected and with its schema in place. */
export async function openResourceStore(settings: ResourceStoreSettings): Promise<ResourceStore> {
  if (settings.mongoUrl) {
    const connection = await connectMongo(settings.mongoUrl, {
      dbName: settings.mongoDbName ?? 'resources',
      autoIndex: settings.mongoAutoIndex ?? true,
    });
    return new MongoResourceStore(connection);
  }
  return new SqliteResourceStore(settings.sqliteFile);
}
