import { connectMongo } from '@formcast/storage';
import { describeWithMongo, uniqueName } from '@formcast/testing';
import { openPushStore, type PushStore } from '../../src/store';
import { MongoPushStore } from '../../src/store/mongo-push-store';
import { describePushStoreContract, type PushStoreTestOptions } from './push-store.contract';

describeWithMongo('MongoPushStore', (mongo) => {
  const databases: string[] = [];
  const databaseOf = new WeakMap<PushStore, string>();

  async function storeOn(dbName: string, options: PushStoreTestOptions & { autoIndex?: boolean } = {}) {
    const { autoIndex, ...storeOptions } = options;
    const connection = await connectMongo(mongo.url(), { dbName, ...(autoIndex === undefined ? {} : { autoIndex }) });
    const store = new MongoPushStore(connection, storeOptions);
    databaseOf.set(store, dbName);
    return store;
  }

  function freshDatabase(): string {
    const dbName = uniqueName('push_test');
    databases.push(dbName);
    return dbName;
  }

  describePushStoreContract('contract', (options) => storeOn(freshDatabase(), options), {
    reopen: async (store) => {
      const dbName = databaseOf.get(store);
      if (!dbName) throw new Error('not a store of this suite');
      return storeOn(dbName);
    },
  });

  it('builds its indexes with syncIndexes when autoIndex is off', async () => {
    const dbName = freshDatabase();
    const store = await storeOn(dbName, { autoIndex: false });
    const admin = await connectMongo(mongo.url(), { dbName });
    try {
      await store.syncIndexes();
      const keys = (await admin.collection('oneshots').indexes()).map((index) => Object.keys(index.key).join('+'));
      expect(keys).toEqual(expect.arrayContaining(['orgId+deviceId+state+_id', 'orgId+state+_id']));
    } finally {
      await admin.close();
      await store.close();
    }
  });

  it('is what openPushStore opens when a MongoDB URL is set', async () => {
    const store = await openPushStore({ mongoUrl: mongo.url(), mongoDbName: freshDatabase(), sqliteFile: '/nonexistent/push.sqlite' });
    try {
      expect(store).toBeInstanceOf(MongoPushStore);
      await expect(store.ping()).resolves.toBeUndefined();
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
