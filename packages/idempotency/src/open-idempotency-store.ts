import { openStore } from '@formcast/storage';
import type { IdempotencyStore } from './idempotency-store';
import { loadMongoIdempotency } from './load-mongo-idempotency';
import type { PruneOptions } from './prune-schedule';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';

export interface IdempotencyStoreSettings extends PruneOptions {
  /** MongoDB when set: the collection `idempotency_keys` in the owning service's database. */
  mongoUrl?: string | undefined;
  /** The owning service's database (e.g. `push`). */
  mongoDbName: string;
  /** SQLite otherwise: a file of its own beside the service's (e.g. `DATA_DIR/push-idempotency.sqlite`). */
  sqliteFile: string;
}

/** A service's idempotency keys, on the adapter the settings ask for. */
export function openIdempotencyStore({ mongoUrl, mongoDbName, sqliteFile, ...options }: IdempotencyStoreSettings): Promise<IdempotencyStore> {
  return openStore<IdempotencyStore>(
    { mongoUrl, mongoDbName, sqliteFile },
    {
      mongoDbName,
      sqlite: (file) => new SqliteIdempotencyStore(file, options),
      mongo: (connection) => {
        const { MongoIdempotencyStore } = loadMongoIdempotency();
        return new MongoIdempotencyStore(connection);
      },
    },
  );
}
