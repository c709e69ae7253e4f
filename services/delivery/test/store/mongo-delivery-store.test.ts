import { connectMongo } from '@formcast/storage';
import { describeWithMongo, mongoTestDatabases } from '@formcast/testing';
import { MongoDeliveryStore } from '../../src/store/mongo-delivery-store';
import { describeDeliveryStoreContract } from './delivery-store.contract';

describeWithMongo('MongoDeliveryStore', (mongo) => {
  const freshDatabase = mongoTestDatabases(mongo, 'delivery_test');

  async function freshStore(options: { autoIndex?: boolean } = {}): Promise<MongoDeliveryStore> {
    const dbName = freshDatabase();
    return new MongoDeliveryStore(await connectMongo(mongo.url(), { dbName, ...options }));
  }

  describeDeliveryStoreContract('contract', () => freshStore());

  it('builds its indexes with syncIndexes when autoIndex is off', async () => {
    const connection = await connectMongo(mongo.url(), { dbName: freshDatabase(), autoIndex: false });
    const store = new MongoDeliveryStore(connection);
    try {
      await store.syncIndexes();
      const keys = async (collection: string) =>
        (await connection.collection(collection).indexes()).map((index) => ({ key: index.key, unique: index.unique === true }));
      expect(await keys('deliveries')).toEqual(
        expect.arrayContaining([
          { key: { destinationId: 1, submissionId: 1 }, unique: true },
          { key: { status: 1, nextAttemptAt: 1 }, unique: false },
          { key: { status: 1, claimedUntil: 1 }, unique: false },
          { key: { destinationId: 1, _id: -1 }, unique: false },
        ]),
      );
      expect(await keys('destinations')).toEqual(
        expect.arrayContaining([
          { key: { orgId: 1, formId: 1, _id: 1 }, unique: false },
          { key: { orgId: 1, commandId: 1 }, unique: true },
        ]),
      );
    } finally {
      await store.close();
    }
  });
});
