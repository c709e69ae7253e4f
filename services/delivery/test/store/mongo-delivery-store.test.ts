import { connectMongo } from '@formcast/storage';
import { describeWithMongo, mongoTestDatabases } from '@formcast/testing';
import type { Connection } from 'mongoose';
import { SecretCipher } from '../../src/secrets';
import { MongoDeliveryStore } from '../../src/store/mongo-delivery-store';
import { describeDeliveryStoreContract, testKey } from './delivery-store.contract';

describeWithMongo('MongoDeliveryStore', (mongo) => {
  const freshDatabase = mongoTestDatabases(mongo, 'delivery_test');

  let dbName: string;
  let connection: Connection;

  async function open(cipher: SecretCipher): Promise<MongoDeliveryStore> {
    connection = await connectMongo(mongo.url(), { dbName });
    return new MongoDeliveryStore(connection, cipher);
  }

  describeDeliveryStoreContract('contract', {
    make: async (cipher) => {
      dbName = freshDatabase();
      return open(cipher);
    },
    reopen: open,
    rawDestination: async (id) => JSON.stringify(await connection.collection('destinations').findOne({ _id: id as never })),
    writeInClear: async (id, secrets) => {
      await connection.collection('destinations').updateOne(
        { _id: id as never },
        { $set: { secret: secrets.current, retiredSecrets: secrets.retired.map((r) => ({ secret: r.secret, expiresAt: new Date(r.expiresAt) })) } },
      );
    },
  });

  it('builds its indexes with syncIndexes when autoIndex is off', async () => {
    const connection = await connectMongo(mongo.url(), { dbName: freshDatabase(), autoIndex: false });
    const store = new MongoDeliveryStore(connection, new SecretCipher(testKey));
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
          { key: { status: 1, updatedAt: 1 }, unique: false },
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
