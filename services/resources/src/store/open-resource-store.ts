import { connectMongo } from '@formcast/storage';
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
    // Loaded only here: a process on SQLite never loads the Mongo adapter, its models or mongoose.
    const { MongoResourceStore } = loadMongoAdapter();
    const connection = await connectMongo(settings.mongoUrl, {
      dbName: settings.mongoDbName ?? 'resources',
      autoIndex: settings.mongoAutoIndex ?? true,
    });
    return new MongoResourceStore(connection);
  }
  return new SqliteResourceStore(settings.sqliteFile);
}

/**
 * `require`, not `import()`: tsc keeps `import()` as Node's own in this CommonJS output, where a
 * relative path needs its `.js` extension, which jest (running the `.ts` sources) cannot resolve.
 */
function loadMongoAdapter(): typeof import('./mongo-resource-store') {
  return require('./mongo-resource-store') as typeof import('./mongo-resource-store');
}
