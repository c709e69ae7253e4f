import { join } from 'node:path';
import type { Connection } from 'mongoose';
import { connectMongo } from './mongo';

/** Where a service keeps its data: the same settings for every service. */
export interface StoreSettings {
  /** MongoDB (a replica set, for transactions) when set; otherwise SQLite in `sqliteFile`. */
  mongoUrl?: string | undefined;
  /** The service's own database on that server (default: the service's name). */
  mongoDbName?: string;
  /** Mongoose's background index build (see `connectMongo`); the store's start builds them either way. */
  mongoAutoIndex?: boolean;
  /** e.g. `join(DATA_DIR, 'push.sqlite')`; created with its folder if missing. */
  sqliteFile: string;
}

export interface StoreAdapters<S> {
  /** The database name when the settings give none (`storeSettingsOf` gives the service's name). */
  mongoDbName?: string;
  sqlite(file: string): S;
  /**
   * Called only with `mongoUrl` set. When the store has a `start()` (every MongoStore does),
   * `openStore` awaits it: the store is answered only once its indexes and migrations are in
   * place, and a start that fails closes the connection and rejects (see MongoStore.start). Load the Mongo adapter inside it with `require`, so a
   * process on SQLite never loads it, its models or mongoose. `require`, not `import()`: tsc
   * keeps `import()` as Node's own in this CommonJS output, where a relative path needs its
   * `.js` extension, which jest (running the `.ts` sources) cannot resolve.
   */
  mongo(connection: Connection): S;
}

/** The process settings a store's come from. */
export interface ProcessStoreSettings {
  MONGO_URL?: string | undefined;
  DATA_DIR: string;
}

/** A store's settings from the process's: the database `name` at MONGO_URL when set, else SQLite in `<DATA_DIR>/<name>.sqlite`. */
export function storeSettingsOf(settings: ProcessStoreSettings, name: string): StoreSettings {
  return { mongoUrl: settings.MONGO_URL, mongoDbName: name, sqliteFile: join(settings.DATA_DIR, `${name}.sqlite`) };
}

/** The adapter the settings ask for, connected and with its schema in place. */
export async function openStore<S>(settings: StoreSettings, adapters: StoreAdapters<S>): Promise<S> {
  if (!settings.mongoUrl) return adapters.sqlite(settings.sqliteFile);
  const connection = await connectMongo(settings.mongoUrl, {
    dbName: settings.mongoDbName ?? adapters.mongoDbName,
    ...(settings.mongoAutoIndex === undefined ? {} : { autoIndex: settings.mongoAutoIndex }),
  });
  try {
    const store = adapters.mongo(connection);
    const { start } = store as { start?: unknown };
    if (typeof start === 'function') await (start as () => Promise<void>).call(store);
    return store;
  } catch (error) {
    await connection.close();
    throw error;
  }
}
