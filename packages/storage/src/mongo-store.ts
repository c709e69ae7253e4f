import { AppError } from '@formcast/platform';
import type { ClientSession, Connection, Model } from 'mongoose';
import { mongoCounterModel } from './mongo';
import { MongoStartRefused, mongoServerRefusal, retryStart, type HelloAnswer, type StartRetryOptions } from './mongo-startup';

/** A service's mongoose models by name, as its `mongo-models/index.ts` registers them (each with its own document type). */
export type MongoModels = Record<string, Model<any>>;

/**
 * What every MongoDB store of a service shares: its models registered on a connection of its
 * own, the start (see `start`), index sync, ping, close and transactions. Only types come from
 * mongoose here (see `mongo.ts`).
 */
export abstract class MongoStore<M extends MongoModels> {
  protected readonly models: M;
  private starting: Promise<void> | undefined;

  /**
   * Registers the models on the connection (see `connectMongo`). The store owns the
   * connection from then on: `close()` closes it. `label` names the database in errors.
   */
  constructor(
    protected readonly connection: Connection,
    registerModels: (connection: Connection) => M,
    private readonly label: string,
    startOptions: StartRetryOptions = {},
  ) {
    this.models = registerModels(connection);
    // A retried failure is said on stderr (no logger reaches a store); the last one rejects the start.
    this.startOptions = { onRetry: (message) => process.stderr.write(`${message}\n`), ...startOptions };
  }

  private readonly startOptions: StartRetryOptions;

  /**
   * Brings the database into the shape this release needs, once, before the first operation:
   * - refuses a server that is not a replica set (or mongos), with the reason
   *   (`mongoServerRefusal`): not retried;
   * - `prepare()` (what must go before the indexes: a retired index in the way of a new one);
   * - every collection, then every index the schemas declare (createIndexes: the ones there
   *   already are left as they are; an index whose options changed fails the start);
   * - `migrate()` (the moves of data older releases left).
   * Each step is idempotent, so replicas starting together all run it. A failure is retried
   * (`retryStart`), then rejects with a message naming the database. `openStore` awaits it, so
   * the process is not ready, and does not start, until it succeeded; every operation and
   * `ping()` await it too. A rejected start is not kept: the next call starts again.
   */
  start(): Promise<void> {
    if (!this.starting) {
      const starting = this.startOnce();
      this.starting = starting;
      starting.catch(() => {
        if (this.starting === starting) this.starting = undefined;
      });
    }
    return this.starting;
  }

  /** Await it before the first operation: the start (see `start`). */
  protected get ready(): Promise<void> {
    return this.start();
  }

  private async startOnce(): Promise<void> {
    const what = `The ${this.label} database's start`;
    await retryStart(what, () => this.checkServer(), this.startOptions);
    await retryStart(
      what,
      async () => {
        await this.prepare();
        for (const model of this.allModels()) {
          // Created before the first transaction: a transaction racing a collection's creation fails instead of waiting.
          await model.createCollection();
          await model.createIndexes();
        }
        await this.migrate();
      },
      this.startOptions,
    );
  }

  private async checkServer(): Promise<void> {
    const hello = (await this.database().command({ hello: 1 })) as HelloAnswer;
    const refusal = mongoServerRefusal(hello);
    if (refusal) throw new MongoStartRefused(`The ${this.label} database cannot be used: ${refusal}`);
  }

  private allModels(): Model<any>[] {
    return [...Object.values(this.models), mongoCounterModel(this.connection)];
  }

  /** Run at start before the indexes are built (see `start`); idempotent. None by default. */
  protected async prepare(): Promise<void> {}

  /** Run at start once the indexes exist (see `start`); idempotent. None by default. */
  protected async migrate(): Promise<void> {}

  /** The driver's database of the connection. */
  protected database(): NonNullable<Connection['db']> {
    const db = this.connection.db;
    if (!db) throw new AppError('unavailable', `The ${this.label} database is not connected`);
    return db;
  }

  /** Builds every index the schemas declare and drops the others (an operator's step: `start` builds, never drops). */
  async syncIndexes(): Promise<void> {
    await this.ready;
    for (const model of Object.values(this.models)) await model.syncIndexes();
  }

  /** Readiness: started (see `start`) and the server answers. */
  async ping(): Promise<void> {
    await this.ready;
    await this.database().command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  /**
   * Several reads from one snapshot (a count and its page, as SQLite answers them from one
   * read transaction): a snapshot session (MongoDB 5.0, a replica set: what `start` checks).
   */
  protected async snapshotRead<T>(read: (session: ClientSession) => Promise<T>): Promise<T> {
    await this.ready;
    const session = await this.connection.startSession({ snapshot: true });
    try {
      return await read(session);
    } finally {
      await session.endSession();
    }
  }

  /** `change` in one transaction (retried by the driver on transient errors), once started. */
  protected async transaction<T>(change: (session: ClientSession) => Promise<T>): Promise<T> {
    await this.ready;
    return this.connection.transaction(change);
  }
}
