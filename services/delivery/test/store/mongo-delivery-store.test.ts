import { connectMongo } from '@formcast/storage';
import { describeWithMongo, mongoTestDatabases, planReads } from '@formcast/testing';
import type { Connection } from 'mongoose';
import type { NewDelivery, NewDestination } from '../../src/domain/records';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
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

  describe('issue 28', () => {
    const orgId = 5;
    const formId = 6;
    const newDestination = (): NewDestination => ({
      orgId,
      formId,
      description: 'hook',
      format: 'json_format',
      formatParameters: {},
      transport: { type: 'http_transport', parameters: { uri: 'https://example.com/hook', headers: {} } },
      secrets: newSigningSecrets(),
    });
    const delivery = (destinationId: number, submissionId: number): NewDelivery => ({
      orgId,
      formId,
      destinationId,
      submissionId,
      webhookId: `msg_${destinationId}_${submissionId}`,
      contentType: 'application/json',
      body: '{}',
    });

    it('keeps no delivery for a destination deleted before it was inserted (it would stay pending forever)', async () => {
      dbName = freshDatabase();
      const store = await open(new SecretCipher(testKey));
      try {
        const destination = await store.destinations.createDestination(newDestination(), 'c1');
        await store.destinations.deleteDestination(orgId, formId, destination.id);
        expect(await store.queue.createDeliveries([delivery(destination.id, 1)], Date.now())).toBe(0);
        expect(await connection.collection('deliveries').countDocuments({ destinationId: destination.id })).toBe(0);
      } finally {
        await store.close();
      }
    });

    it('reads through the indexes its comments name (explain)', async () => {
      dbName = freshDatabase();
      const store = await open(new SecretCipher(testKey));
      try {
        await store.start();
        const deliveries = connection.collection('deliveries');
        const now = new Date();
        const due = await deliveries
          .aggregate([
            { $match: { status: 'pending', nextAttemptAt: { $lte: now }, claimedUntil: { $lte: now } } },
            { $project: { _id: 1, orgId: 1, destinationId: 1, nextAttemptAt: 1 } },
          ])
          .explain('queryPlanner');
        expect(planReads(due).collectionScan).toBe(false);
        const log = planReads(await deliveries.find({ destinationId: 1 }).sort({ _id: -1 }).explain('queryPlanner'));
        expect(log).toEqual({ indexes: ['destinationId_1__id_-1'], collectionScan: false });
        const once = planReads(await deliveries.find({ destinationId: 1, submissionId: 2 }).explain('queryPlanner'));
        expect(once).toEqual({ indexes: ['destinationId_1_submissionId_1'], collectionScan: false });
        const destinations = planReads(await connection.collection('destinations').find({ orgId, formId }).sort({ _id: 1 }).explain('queryPlanner'));
        expect(destinations).toEqual({ indexes: ['orgId_1_formId_1__id_1'], collectionScan: false });
      } finally {
        await store.close();
      }
    });
  });
});
