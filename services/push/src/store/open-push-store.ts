import { connectMongo } from '@formcast/storage';
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
    // Loaded only here: a process on SQLite never loads the Mongo adapter, its models or mongoose.
    const { MongoPushStore } = loadMongoAdapter();
    const connection = await connectMongo(settings.mongoUrl, {
      dbName: settings.mongoDbName ?? 'push',
      autoIndex: settings.mongoAutoIndex ?? true,
    });
    return new MongoPushStore(connection);
  }
  return new SqlitePushStore(settings.sqliteFile);
}

/**
 * `require`, not `import()`: tsc keeps `import()` as Node's own in this CommonJS output, where a
 * relative path needs its `.js` extension, which jest (running the `.ts` sources) cannot resolve.
 */
function loadMongoAdapter(): typeof import('./mongo-push-store') {
  return require('./mongo-push-store') as typeof import('./mongo-push-store');
}
