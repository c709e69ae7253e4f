import { connectMongo } from '@formcast/storage';
import { describeWithMongo, mongoTestDatabases, planReads } from '@formcast/testing';
import { openPushStore, type PushStore } from '../../src/store';
import { MongoPushStore } from '../../src/store/mongo-push-store';
import { describePushStoreContract, type PushStoreTestOptions } from './push-store.contract';
import { describeSubmissionImageStoreContract } from './submission-image-store.contract';
import { describeSubmissionStoreContract } from './submission-store.contract';

describeWithMongo('MongoPushStore', (mongo) => {
  const freshDatabase = mongoTestDatabases(mongo, 'push_test');
  const databaseOf = new WeakMap<PushStore, string>();

  async function storeOn(dbName: string, options: PushStoreTestOptions & { autoIndex?: boolean } = {}) {
    const { autoIndex, ...storeOptions } = options;
    const connection = await connectMongo(mongo.url(), { dbName, ...(autoIndex === undefined ? {} : { autoIndex }) });
    const store = new MongoPushStore(connection, storeOptions);
    databaseOf.set(store, dbName);
    return store;
  }

  describePushStoreContract('contract', (options) => storeOn(freshDatabase(), options), {
    reopen: async (store) => {
      const dbName = databaseOf.get(store);
      if (!dbName) throw new Error('not a store of this suite');
      return storeOn(dbName);
    },
  });

  describeSubmissionStoreContract('submissions', () => storeOn(freshDatabase()), {
    reopen: async (store) => storeOn(databaseOf.get(store)!),
  });

  describeSubmissionImageStoreContract('submission images', () => storeOn(freshDatabase()), {
    reopen: async (store) => storeOn(databaseOf.get(store)!),
  });

  it('moves the submissions kept before submissions had ids, in the order of their oneshots, once', async () => {
    const dbName = freshDatabase();
    const admin = await connectMongo(mongo.url(), { dbName });
    const oneshot = (id: number) => ({
      _id: id,
      orgId: 1,
      deviceId: 10,
      deviceIdentifier: 'Android_10',
      formId: 7,
      templateNamespace: 'http://forms.example.com/t',
      namespace: 'http://forms.example.com/t?u',
      name: 'Inspection for Acme',
      description: '',
      payload: {},
      state: 'completed',
      createdAt: new Date('2030-01-01T08:00:00.000Z'),
      updatedAt: new Date('2030-01-01T09:00:00.000Z'),
    });
    const submittedAt = new Date('2030-01-01T09:00:00.000Z');
    try {
      type NumberedDoc = { _id: number; [field: string]: unknown };
      await admin.db!.collection<NumberedDoc>('oneshots').insertMany([oneshot(2), oneshot(4)]);
      await admin.db!.collection<NumberedDoc>('submissions').insertMany([
        { _id: 4, orgId: 1, deviceId: 10, answers: { site: 'later' }, submittedAt },
        { _id: 2, orgId: 1, deviceId: 10, answers: { site: 'first' }, submittedAt },
      ]);
      const [store, replica] = await Promise.all([storeOn(dbName), storeOn(dbName)]);
      try {
        const { submissions } = await store.listSubmissions(1, { formId: 7, offset: 0, limit: 10 });
        await replica.listSubmissions(1, { formId: 7, offset: 0, limit: 10 });
        expect(submissions.map((s) => [s.id, s.oneshotId, s.answers])).toEqual([
          [1, 2, { site: 'first' }],
          [2, 4, { site: 'later' }],
        ]);
        expect(submissions[0]).toMatchObject({ deviceIdentifier: 'Android_10', deviceOwner: '', formName: 'Inspection for Acme', formVersion: '' });
        expect(await admin.collection('submissions').countDocuments()).toBe(0);
        expect(await admin.collection('form_submissions').countDocuments()).toBe(2);
      } finally {
        await store.close();
        await replica.close();
      }
    } finally {
      await admin.close();
    }
  });

  it('builds its indexes with syncIndexes when autoIndex is off', async () => {
    const dbName = freshDatabase();
    const store = await storeOn(dbName, { autoIndex: false });
    const admin = await connectMongo(mongo.url(), { dbName });
    try {
      await store.syncIndexes();
      const keys = (await admin.collection('oneshots').indexes()).map((index) => Object.keys(index.key).join('+'));
      expect(keys).toEqual(expect.arrayContaining(['orgId+deviceId+state+_id', 'orgId+state+_id']));
      // The Idempotency-Keys of the push database: one per organization and key, expiring.
      expect(await admin.collection('idempotency_keys').indexes()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: { orgId: 1, key: 1 }, unique: true }),
          expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }),
        ]),
      );
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

  it('reads through the indexes its comments name: the partial unique ones of submit included (explain)', async () => {
    const dbName = freshDatabase();
    const store = await storeOn(dbName);
    const admin = await connectMongo(mongo.url(), { dbName });
    try {
      await store.start();
      const plan = async (collection: string, filter: object, sort?: object) => {
        const cursor = admin.collection(collection).find(filter);
        return planReads(await (sort ? cursor.sort(sort as never) : cursor).explain('queryPlanner'));
      };
      // The filters of loadSubmission: each says its partial index's $type (see there).
      expect(await plan('form_submissions', { orgId: 1, oneshotId: { $eq: 5, $type: 'number' } })).toEqual({
        indexes: ['orgId_1_oneshotId_1'],
        collectionScan: false,
      });
      expect(await plan('form_submissions', { orgId: 1, deviceId: 2, clientSubmissionId: { $eq: 'c', $type: 'string' } })).toEqual({
        indexes: ['orgId_1_deviceId_1_clientSubmissionId_1'],
        collectionScan: false,
      });
      expect(await plan('form_submissions', { orgId: 1, formId: 3 }, { _id: 1 })).toEqual({ indexes: ['orgId_1_formId_1__id_1'], collectionScan: false });
      expect((await plan('oneshots', { orgId: 1, deviceId: 2, state: 'outstanding' }, { _id: 1 })).indexes).toEqual(['orgId_1_deviceId_1_state_1__id_1']);
      expect((await plan('oneshots', { orgId: 1, state: 'outstanding' }, { _id: 1 })).collectionScan).toBe(false);
      expect(
        (await plan('oneshots', { state: 'outstanding', releasedAt: { $type: 'null' }, scheduledAt: { $lte: new Date() } }, { scheduledAt: 1, _id: 1 })).collectionScan,
      ).toBe(false);
      expect((await plan('applied_commands', { appliedAt: { $lt: new Date() } }, { appliedAt: 1 })).indexes).toEqual(['appliedAt_1']);
    } finally {
      await admin.close();
      await store.close();
    }
  });

});
