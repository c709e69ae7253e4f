import type { ClientSession, Connection, Model } from 'mongoose';

/*
 * Only types come from mongoose at the top of this module: `@formcast/storage` re-exports it,
 * and every service imports `@formcast/storage` for SQLite too. mongoose (and the MongoDB
 * driver under it, about 30 MB of a process's memory) is loaded by `connectMongo`, so a
 * process on SQLite never loads it.
 */

export interface MongoOptions {
  /** The database to use; defaults to the one named in the URL. */
  dbName?: string;
  /**
   * Build the schemas' indexes when their models are registered. Mongoose's default (on)
   * suits development and tests; production turns it off and runs `syncIndexes()` at deploy.
   */
  autoIndex?: boolean;
  /** How long an operation waits for a usable server before failing. */
  serverSelectionTimeoutMS?: number;
}

/**
 * Opens a connection of its own (not mongoose's global one) and waits until it is usable.
 * The first call loads mongoose.
 */
export async function connectMongo(url: string, options: MongoOptions = {}): Promise<Connection> {
  const { default: mongoose } = await import('mongoose');
  const connection = mongoose.createConnection(url, {
    autoIndex: options.autoIndex ?? true,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 10_000,
    ...(options.dbName === undefined ? {} : { dbName: options.dbName }),
  });
  return connection.asPromise();
}

export interface CounterDoc {
  _id: string;
  value: number;
}

/** The `counters` collection's model on this connection (registered once). */
export function mongoCounterModel(connection: Connection): Model<CounterDoc> {
  const registered = connection.models.Counter as Model<CounterDoc> | undefined;
  if (registered) return registered;
  // The connection's own mongoose builds the schema, so this module needs mongoose only as types.
  const counterSchema = new connection.base.Schema<CounterDoc>(
    { _id: { type: String, required: true }, value: { type: Number, required: true } },
    { versionKey: false },
  );
  return connection.model<CounterDoc>('Counter', counterSchema, 'counters');
}

/**
 * The next integer id of a collection (1, 2, 3...), from the `counters` collection. Pass the
 * session to take the id inside a transaction (it is then given back if the transaction aborts).
 */
export async function nextMongoId(
  connection: Connection,
  name: string,
  session?: ClientSession,
): Promise<number> {
  const counter = await mongoCounterModel(connection)
    .findOneAndUpdate(
      { _id: name },
      { $inc: { value: 1 } },
      { upsert: true, returnDocument: 'after', session: session ?? null },
    )
    .lean();
  if (!counter) throw new Error(`The counter "${name}" returned no value`);
  return counter.value;
}
