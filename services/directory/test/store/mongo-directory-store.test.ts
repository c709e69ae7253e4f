import { connectMongo } from '@formcast/storage';
import { describeWithMongo, uniqueName } from '@formcast/testing';
import { MongoDirectoryStore } from '../../src/store/mongo-directory-store';
import { describeDirectoryStoreContract } from './directory-store.contract';

describeWithMongo('MongoDirectoryStore', (mongo) => {
  const databases: string[] = [];

  async function freshStore(options: { autoIndex?: boolean } = {}): Promise<MongoDirectoryStore> {
    const dbName = uniqueName('directory_test');
    databases.push(dbName);
    return new MongoDirectoryStore(await connectMongo(mongo.url(), { dbName, ...options }));
  }

  describeDirectoryStoreContract('contract', () => freshStore());

  it('builds its unique indexes with syncIndexes when autoIndex is off', async () => {
    const dbName = uniqueName('directory_test');
    databases.push(dbName);
    const connection = await connectMongo(mongo.url(), { dbName, autoIndex: false });
    const store = new MongoDirectoryStore(connection);
    try {
      await store.syncIndexes();
      const uniqueKeys = async (collection: string) =>
        (await connection.collection(collection).indexes())
          .filter((index) => index.unique)
          .map((index) => Object.keys(index.key).join('+'));
      expect(await uniqueKeys('devices')).toEqual(expect.arrayContaining(['identifier', 'secretHash']));
      expect(await uniqueKeys('forms')).toEqual(expect.arrayContaining(['orgId+namespace']));
      expect(await uniqueKeys('groups')).toEqual(expect.arrayContaining(['orgId+name', 'orgId']));
      expect(await uniqueKeys('api_tokens')).toEqual(expect.arrayContaining(['tokenHash']));
      expect(await uniqueKeys('organizations')).toEqual(expect.arrayContaining(['enrollmentCode']));
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
