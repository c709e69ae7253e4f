import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithMongo, uniqueName } from '@formcast/testing';
import type { Connection, Model } from 'mongoose';
import { countersMigration, MongoStore, nextSqliteId, openSqlite, openStore, type SqliteDatabase } from '../src';

describe('openStore on SQLite', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'formcast-open-store-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  it('opens the SQLite adapter on the given file when no MongoDB URL is set, and never the Mongo one', async () => {
    const file = join(dir, 'nested', 'things.sqlite');
    const mongo = jest.fn();
    const db = await openStore<SqliteDatabase>(
      { sqliteFile: file, mongoUrl: undefined },
      { mongoDbName: 'things', sqlite: (path) => openSqlite(path, [countersMigration(1)]), mongo },
    );
    expect(db.name).toBe(file);
    expect(nextSqliteId(db, 'things')).toBe(1);
    db.close();
    expect(mongo).not.toHaveBeenCalled();
  });
});

interface ThingDoc {
  _id: number;
  name: string;
}

class ThingStore extends MongoStore<{ Thing: Model<ThingDoc> }> {
  constructor(connection: Connection) {
    super(
      connection,
      (c) => ({ Thing: c.model<ThingDoc>('Thing', new c.base.Schema<ThingDoc>({ _id: Number, name: { type: String, index: true } }), 'things') }),
      'things',
    );
  }

  databaseName(): string {
    return this.connection.name;
  }

  async insertBoth(first: ThingDoc, second: ThingDoc): Promise<void> {
    await this.transaction(async (session) => {
      await this.models.Thing.create([first], { session });
      await this.models.Thing.create([second], { session });
    });
  }

  count(): Promise<number> {
    return this.models.Thing.countDocuments();
  }
}

describeWithMongo('openStore and MongoStore on MongoDB', (mongo) => {
  let store: ThingStore;

  beforeAll(async () => {
    store = await openStore<ThingStore>(
      { sqliteFile: '/nowhere', mongoUrl: mongo.url(), mongoDbName: uniqueName('open_store') },
      { mongoDbName: 'unused', sqlite: () => { throw new Error('SQLite must not be opened'); }, mongo: (c) => new ThingStore(c) },
    );
  });
  afterAll(async () => {
    await store.close();
  });

  it('connects to the database the settings name, and answers ping', async () => {
    expect(store.databaseName()).toMatch(/^open_store/);
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('writes both documents of a transaction, or neither', async () => {
    await store.insertBoth({ _id: 1, name: 'a' }, { _id: 2, name: 'b' });
    await expect(store.insertBoth({ _id: 3, name: 'c' }, { _id: 1, name: 'duplicate' })).rejects.toThrow();
    expect(await store.count()).toBe(2);
  });

  it('syncs the declared indexes', async () => {
    await store.syncIndexes();
    const indexes = await (store as unknown as { models: { Thing: Model<ThingDoc> } }).models.Thing.listIndexes();
    expect(indexes.map((index) => index.key)).toEqual(expect.arrayContaining([{ _id: 1 }, { name: 1 }]));
  });
});
