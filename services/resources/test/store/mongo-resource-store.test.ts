import { randomUUID } from 'node:crypto';
import { connectMongo } from '@formcast/storage';
import { describeWithMongo, uniqueName } from '@formcast/testing';
import { MongoResourceStore, resourceFilesBucket } from '../../src/store/mongo-resource-store';
import { describeResourceStoreContract } from './resource-store.contract';

describeWithMongo('MongoResourceStore', (mongo) => {
  const databases: string[] = [];

  async function freshStore(options: { autoIndex?: boolean } = {}): Promise<MongoResourceStore> {
    const dbName = uniqueName('resources_test');
    databases.push(dbName);
    return new MongoResourceStore(await connectMongo(mongo.url(), { dbName, ...options }));
  }

  describeResourceStoreContract('contract', () => freshStore());

  it('keeps the bytes in GridFS, one file per resource, the old one deleted on replacement', async () => {
    const dbName = uniqueName('resources_test');
    databases.push(dbName);
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

  it('builds its indexes with syncIndexes when autoIndex is off', async () => {
    const store = await freshStore({ autoIndex: false });
    try {
      await store.syncIndexes();
    } finally {
      await store.close();
    }
  });

  afterAll(async () => {
    const admin = await connectMongo(mongo.url());
    try {
      for (const name of databases) await admin.useDb(name).dropDatabase();
    } finally {
      await admin.close();
    }
  });
});
