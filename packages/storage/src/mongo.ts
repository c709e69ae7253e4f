import type { Connection, Model } from 'mongoose';

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
   * Let mongoose build the schemas' indexes in the background when their models are
   * registered (on by default). A MongoStore builds them again in its start, which it awaits
   * and which fails loudly (see MongoStore.start), so its indexes never depend on this
   * background build, whose errors mongoose drops. Stays on for what is not a MongoStore
   * (the Idempotency-Keys of `@formcast/idempotency`, whose `init()` builds them this way).
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
 * The next integer id of a collection (1, 2, 3...), from its document in the `counters`
 * collection; with `count`, the first of that many consecutive ids.
 *
 * Never inside a transaction, on purpose. A counter incremented inside a transaction is held
 * by it until it commits: every other transaction taking an id of that collection (every
 * organization's) then fails with a write conflict and is retried, so all such writes run one
 * at a time. Taken here, the increment is its own short write; transactions never conflict on
 * it. The price: an id taken by a transaction that then aborts (or is retried) is not used,
 * a gap. Ids stay unique and increasing; they were never consecutive within an organization,
 * since all organizations share each sequence.
 */
export async function nextMongoId(connection: Connection, name: string, count = 1): Promise<number> {
  if (!Number.isInteger(count) || count < 1) throw new Error(`Cannot take ${count} ids of the counter "${name}"`);
  const counter = await mongoCounterModel(connection)
    // counters: by _id (the _id index); no session, see above.
    .findOneAndUpdate({ _id: name }, { $inc: { value: count } }, { upsert: true, returnDocument: 'after', session: null })
    .lean();
  if (!counter) throw new Error(`The counter "${name}" returned no value`);
  return counter.value - count + 1;
}
