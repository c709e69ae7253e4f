import { AppError } from '@formcast/platform';
import type { ClientSession, Connection, Model } from 'mongoose';
import { mongoCounterModel } from './mongo';

/** A service's mongoose models by name, as its `mongo-models/index.ts` registers them (each with its own document type). */
export type MongoModels = Record<string, Model<any>>;

/**
 * What every MongoDB store of a service shares: its models registered on a connection of its
 * own, their collections created before the first operation, index sync for deploys, ping,
 * close and transactions. Only types come from mongoose here (see `mongo.ts`).
 */
export abstract class MongoStore<M extends MongoModels> {
  protected readonly models: M;
  protected readonly ready: Promise<void>;

  /**
   * Registers the models on the connection (see `connectMongo`). The store owns the
   * connection from then on: `close()` closes it. `label` names the database in errors.
   */
  constructor(
    protected readonly connection: Connection,
    registerModels: (connection: Connection) => M,
    private readonly label: string,
  ) {
    this.models = registerModels(connection);
    // Creating the collections (and, with autoIndex, their indexes) before the first
    // transaction: a transaction racing a collection's creation fails instead of waiting.
    const models = [...Object.values(this.models), mongoCounterModel(connection)];
    this.ready = Promise.all(models.map((model) => model.init())).then(() => undefined);
    this.ready.catch(() => undefined); // reported by the first operation that awaits it
  }

  /** Builds every index the schemas declare and drops others: the deploy step when autoIndex is off. */
  async syncIndexes(): Promise<void> {
    await this.ready;
    for (const model of Object.values(this.models)) await model.syncIndexes();
  }

  async ping(): Promise<void> {
    const db = this.connection.db;
    if (!db) throw new AppError('unavailable', `The ${this.label} database is not connected`);
    await db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  /** `change` in one transaction (retried by the driver on transient errors), once the collections exist. */
  protected async transaction<T>(change: (session: ClientSession) => Promise<T>): Promise<T> {
    await this.ready;
    return this.connection.transaction(change);
  }
}
