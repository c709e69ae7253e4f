import mongoose from 'mongoose';
import { mongoCounterModel } from '../src';

/**
 * Every service imports `@formcast/storage`, for SQLite too: mongoose (about 30 MB of a
 * process) must load only when a MongoDB connection is asked for.
 */
describe('@formcast/storage and mongoose', () => {
  afterEach(() => jest.dontMock('mongoose'));

  it('does not load mongoose when imported and used for SQLite; connectMongo loads it', async () => {
    const loads: string[] = [];
    const createConnection = jest.fn((_url: string, _options: object) => ({ asPromise: () => Promise.resolve('the connection') }));
    let storage!: typeof import('../src');
    jest.isolateModules(() => {
      jest.doMock('mongoose', () => {
        loads.push('mongoose');
        return { __esModule: true, default: { createConnection } };
      });
      storage = require('../src') as typeof import('../src');
    });

    const db = storage.openSqlite(':memory:', [storage.countersMigration(1)]);
    expect(storage.nextSqliteId(db, 'forms')).toBe(1);
    db.close();
    expect(loads).toEqual([]);

    await expect(storage.connectMongo('mongodb://db.example:27017/?replicaSet=rs0', { dbName: 'push', autoIndex: false })).resolves.toBe(
      'the connection',
    );
    expect(loads).toEqual(['mongoose']);
    expect(createConnection).toHaveBeenCalledWith('mongodb://db.example:27017/?replicaSet=rs0', {
      autoIndex: false,
      serverSelectionTimeoutMS: 10_000,
      dbName: 'push',
    });
  });

  it("registers the counters model with the connection's own mongoose, once per connection", async () => {
    const connection = mongoose.createConnection();
    const another = mongoose.createConnection();
    try {
      const model = mongoCounterModel(connection);
      expect(model.collection.collectionName).toBe('counters');
      expect(model.schema).toBeInstanceOf(mongoose.Schema);
      expect(Object.keys(model.schema.paths).sort()).toEqual(['_id', 'value']);
      expect(mongoCounterModel(connection)).toBe(model);
      expect(mongoCounterModel(another)).not.toBe(model);
    } finally {
      await Promise.all([connection.close(), another.close()]);
    }
  });
});
