import { connectMongo } from '@formcast/storage';
import { describeWithMongo, mongoTestDatabases } from '@formcast/testing';
import { MongoIdempotencyStore } from '../src/mongo-idempotency-store';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';

describeWithMongo('MongoIdempotencyStore', (mongo) => {
  const freshDatabase = mongoTestDatabases(mongo, 'idempotency_test');

  describeIdempotencyStoreContract('contract', async () => new MongoIdempotencyStore(await connectMongo(mongo.url(), { dbName: freshDatabase() })));

  it('declares the unique key index and the TTL index on expiresAt', async () => {
    const connection = await connectMongo(mongo.url(), { dbName: freshDatabase() });
    const store = new MongoIdempotencyStore(connection);
    try {
      await store.claim(1, 'k', 'fp', 'cmd-1', new Date());
      const indexes = await connection.collection('idempotency_keys').indexes();
      expect(indexes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: { orgId: 1, key: 1 }, unique: true }),
          expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }),
        ]),
      );
    } finally {
      await store.close();
    }
  });

  it('builds them at start, before any claim, even with mongoose background index build off', async () => {
    const connection = await connectMongo(mongo.url(), { dbName: freshDatabase(), autoIndex: false });
    const store = new MongoIdempotencyStore(connection);
    try {
      await store.start();
      const indexes = await connection.collection('idempotency_keys').indexes();
      expect(indexes).toEqual(expect.arrayContaining([expect.objectContaining({ key: { orgId: 1, key: 1 }, unique: true })]));
    } finally {
      await store.close();
    }
  });
});
