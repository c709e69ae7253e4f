import { connectMongo } from '@formcast/storage';
import type { DirectoryStore } from './directory-store';
import { SqliteDirectoryStore } from './sqlite-directory-store';

export interface DirectoryStoreSettings {
  /** MongoDB (a replica set) when set; otherwise SQLite in `sqliteFile`. */
  mongoUrl?: string | undefined;
  /** The directory's own database on that server. */
  mongoDbName?: string;
  /** Build indexes at start (see `connectMongo`); off in production, where `syncIndexes()` runs at deploy. */
  mongoAutoIndex?: boolean;
  /** e.g. `join(DATA_DIR, 'directory.sqlite')`; created with its folder if missing. */
  sqliteFile: string;
}

/** The adapter the settings ask for, connected and with its schema in place. */
export async function openDirectoryStore(settings: DirectoryStoreSettings): Promise<DirectoryStore> {
  if (settings.mongoUrl) {
    // Loaded only here: a process on SQLite never loads the Mongo adapter, its models or mongoose.
    const { MongoDirectoryStore } = loadMongoAdapter();
    const connection = await connectMongo(settings.mongoUrl, {
      dbName: settings.mongoDbName ?? 'directory',
      autoIndex: settings.mongoAutoIndex ?? true,
    });
    return new MongoDirectoryStore(connection);
  }
  return new SqliteDirectoryStore(settings.sqliteFile);
}

/**
 * `require`, not `import()`: tsc keeps `import()` as Node's own in this CommonJS output, where a
 * relative path needs its `.js` extension, which jest (running the `.ts` sources) cannot resolve.
 */
function loadMongoAdapter(): typeof import('./mongo-directory-store') {
  return require('./mongo-directory-store') as typeof import('./mongo-directory-store');
}
