import { randomUUID } from 'node:crypto';
import { connectMongo } from '@formcast/storage';
import { describeWithMongo, mongoTestDatabases } from '@formcast/testing';
import { MongoResourceStore, resourceFilesBucket } from '../../src/store/mongo-resource-store';
import { describeAsyncUpdateStoreContract } from './async-update-store.contract';
import { describeResourceStoreContract } from './resource-store.contract';

describeWithMongo('MongoResourceStore', (mongo) => {
  const freshDatabase = mongoTestDatabases(mongo, 'resources_test');

  async function freshStore(): Promise<MongoResourceStore> {
    const dbName = freshDatabase();
    return new MongoResourceStore(await connectMongo(mongo.url(), { dbName }));
  }

  describeResourceStoreContract('contract', () => freshStore());
  describeAsyncUpdateStoreContract('v4 jobs', () => freshStore());

  it('keeps the bytes in GridFS, one file per resource, the old one deleted on replacement', async () => {
    const dbName = freshDatabase();
    const connection = await connectMongo(mongo.url(), { dbName });
    const store = new MongoResourceStore(connection);
    const file = (text: string) => ({
      originalFilename: 'a.txt',
      contentType: 'text/plain',
      bytes: Buffer.from(text),
      sha256: 'x',
      identifier: randomUUID(),
      contentSummary: [],
    });
    try {
      const created = await store.createResource(3, { description: '', file: file('one') }, randomUUID());
      const files = () => connection.collection(`${resourceFilesBucket}.files`).find({}).toArray();
      expect((await files()).map((f) => f['metadata'])).toEqual([{ orgId: 3, resourceId: created.id, contentType: 'text/plain' }]);
      await store.updateResource(3, created.id, { file: file('two') }, randomUUID());
      expect(await files()).toHaveLength(1);
      await store.deleteResource(3, created.id);
      expect(await files()).toHaveLength(0);
      expect(await connection.collection(`${resourceFilesBucket}.chunks`).countDocuments()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('builds the indexes its schema declares with syncIndexes when autoIndex is off, and drops others', async () => {
    const dbName = freshDatabase();
    const connection = await connectMongo(mongo.url(), { dbName, autoIndex: false });
    const store = new MongoResourceStore(connection);
    const resources = connection.collection('resources');
    // By name, each with its keys in order ({orgId, _id} and {_id, orgId} are different indexes).
    const indexes = async () =>
      (await resources.indexes())
        .map((index) => ({ name: String(index.name), key: Object.entries(index.key) }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    try {
      await store.listResources(1); // once the store is ready, its collection exists
      await resources.createIndex({ description: 1 }); // one the schema does not declare
      expect(await indexes()).toEqual([
        { name: '_id_', key: [['_id', 1]] },
        { name: 'description_1', key: [['description', 1]] },
      ]);

      await store.syncIndexes();
      expect(await indexes()).toEqual([
        { name: '_id_', key: [['_id', 1]] },
        { name: 'orgId_1__id_1', key: [['orgId', 1], ['_id', 1]] },
        { name: 'orgId_1_commandId_1', key: [['orgId', 1], ['commandId', 1]] },
      ]);
    } finally {
      await store.close();
    }
  });
});
