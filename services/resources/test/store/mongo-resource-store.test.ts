import { randomUUID } from 'node:crypto';
import { connectMongo, endWritable } from '@formcast/storage';
import { mongo as driver } from 'mongoose';
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

  it('builds the indexes its schema declares at start even with autoIndex off; syncIndexes drops others', async () => {
    const dbName = freshDatabase();
    const connection = await connectMongo(mongo.url(), { dbName, autoIndex: false });
    const store = new MongoResourceStore(connection);
    const resources = connection.collection('resources');
    // By name, each with its keys in order ({orgId, _id} and {_id, orgId} are different indexes).
    const indexes = async () =>
      (await resources.indexes())
        .map((index) => ({ name: String(index.name), key: Object.entries(index.key), unique: index.unique === true }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    const declared = [
      { name: '_id_', key: [['_id', 1]], unique: false },
      { name: 'orgId_1__id_1', key: [['orgId', 1], ['_id', 1]], unique: false },
      { name: 'orgId_1_commandId_1', key: [['orgId', 1], ['commandId', 1]], unique: true },
    ];
    try {
      await store.start();
      expect(await indexes()).toEqual(declared);
      await resources.createIndex({ description: 1 }); // one the schema does not declare
      await store.syncIndexes();
      expect(await indexes()).toEqual(declared);
    } finally {
      await store.close();
    }
  });

  it('replaces the non-unique { orgId, commandId } index of older releases at start', async () => {
    const dbName = freshDatabase();
    const setup = await connectMongo(mongo.url(), { dbName });
    await setup.collection('resources').createIndex({ orgId: 1, commandId: 1 }); // as releases before issue 28 built it
    await setup.close();
    const connection = await connectMongo(mongo.url(), { dbName });
    const store = new MongoResourceStore(connection);
    try {
      await store.start();
      const index = (await connection.collection('resources').indexes()).find((each) => each.name === 'orgId_1_commandId_1');
      expect(index?.unique).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('rejects an upload the server refused (a chunk over the 16 MiB a document may have), and writes no files document', async () => {
    // A real failure of the server, not of a stand-in: a chunk bigger than a BSON document (16 MiB).
    const dbName = freshDatabase();
    const connection = await connectMongo(mongo.url(), { dbName });
    const store = new MongoResourceStore(connection);
    try {
      const bucket = new driver.GridFSBucket(connection.db!, { bucketName: resourceFilesBucket, chunkSizeBytes: 17 * 1024 * 1024 });
      const upload = bucket.openUploadStream('too-big');
      await expect(endWritable(upload, Buffer.alloc(17 * 1024 * 1024))).rejects.toThrow();
      expect(await connection.collection(`${resourceFilesBucket}.files`).countDocuments({ _id: upload.id })).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('finds the resources by id and by command id through their indexes (explain)', async () => {
    const dbName = freshDatabase();
    const connection = await connectMongo(mongo.url(), { dbName });
    const store = new MongoResourceStore(connection);
    try {
      await store.start();
      const winning = async (filter: object, sort?: object) => {
        const cursor = connection.collection('resources').find(filter);
        const explained = await (sort ? cursor.sort(sort as never) : cursor).explain('queryPlanner');
        return JSON.stringify(explained['queryPlanner']?.winningPlan);
      };
      expect(await winning({ orgId: 1 }, { _id: 1 })).toContain('orgId_1__id_1');
      expect(await winning({ orgId: 1, commandId: 'c' })).toContain('orgId_1_commandId_1');
      expect(await winning({ _id: 1, orgId: 1 })).toMatch(/IDHACK|_id_|EXPRESS|orgId_1__id_1/);
      expect(await winning({ orgId: 1 }, { _id: 1 })).not.toContain('COLLSCAN');
    } finally {
      await store.close();
    }
  });
});
