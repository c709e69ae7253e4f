import { hashSecret } from '@formcast/platform';
import { connectMongo } from '@formcast/storage';
import { describeWithMongo, mongoTestDatabases, planReads } from '@formcast/testing';
import { MongoDirectoryStore } from '../../src/store/mongo-directory-store';
import { describeDirectoryStoreContract } from './directory-store.contract';

describeWithMongo('MongoDirectoryStore', (mongo) => {
  const freshDatabase = mongoTestDatabases(mongo, 'directory_test');

  async function freshStore(options: { autoIndex?: boolean } = {}): Promise<MongoDirectoryStore> {
    const dbName = freshDatabase();
    return new MongoDirectoryStore(await connectMongo(mongo.url(), { dbName, ...options }));
  }

  describeDirectoryStoreContract('contract', () => freshStore());

  it('builds its unique indexes with syncIndexes when autoIndex is off', async () => {
    const dbName = freshDatabase();
    const connection = await connectMongo(mongo.url(), { dbName, autoIndex: false });
    const store = new MongoDirectoryStore(connection);
    try {
      await store.syncIndexes();
      const uniqueKeys = async (collection: string) =>
        (await connection.collection(collection).indexes())
          .filter((index) => index.unique)
          .map((index) => Object.keys(index.key).join('+'));
      expect(await uniqueKeys('devices')).toEqual(expect.arrayContaining(['orgId+identifier', 'secretHash']));
      expect(await uniqueKeys('devices')).not.toContain('identifier');
      expect(await uniqueKeys('forms')).toEqual(expect.arrayContaining(['orgId+namespace']));
      expect(await uniqueKeys('form_versions')).toEqual(expect.arrayContaining(['orgId+formId+revision']));
      expect(await uniqueKeys('groups')).toEqual(expect.arrayContaining(['orgId+name', 'orgId']));
      expect(await uniqueKeys('api_tokens')).toEqual(expect.arrayContaining(['tokenHash']));
      expect(await uniqueKeys('organizations')).toEqual(expect.arrayContaining(['enrollmentCodeHash']));
    } finally {
      await store.close();
    }
  });

  it('brings a database of a release before issue 16 up to date: codes hashed, the retired unique indexes dropped', async () => {
    const dbName = freshDatabase();
    const setup = await connectMongo(mongo.url(), { dbName });
    const createdAt = new Date('2030-01-01T00:00:00.000Z');
    try {
      const organizations = setup.collection('organizations');
      await organizations.createIndex({ enrollmentCode: 1 }, { unique: true });
      await organizations.insertMany([
        { _id: 1, name: 'Old A', enrollmentCode: 'PLAIN-CODE-A', createdAt },
        { _id: 2, name: 'Old B', enrollmentCode: 'PLAIN-CODE-B', createdAt },
      ] as never[]);
      const devices = setup.collection('devices');
      await devices.createIndex({ identifier: 1 }, { unique: true });
      await devices.insertOne({
        _id: 1, orgId: 1, identifier: 'Android_shared', owner: '', description: '', pendingApproval: true,
        pushToken: null, secretHash: 'secret-old', groupIds: [], createdAt,
      } as never);
      await setup.collection('counters').insertMany([{ _id: 'organizations', value: 2 }, { _id: 'devices', value: 1 }] as never[]);
    } finally {
      await setup.close();
    }

    const store = new MongoDirectoryStore(await connectMongo(mongo.url(), { dbName }));
    try {
      expect(await store.organizations.findByEnrollmentCodeHash(hashSecret('PLAIN-CODE-A'))).toEqual({ id: 1, name: 'Old A', createdAt: createdAt.toISOString() });
      expect(await store.organizations.findByEnrollmentCodeHash(hashSecret('PLAIN-CODE-B'))).toMatchObject({ id: 2 });
      const theirs = await store.devices.enroll({
        orgId: 2, identifier: 'Android_shared', owner: '', description: '', pendingApproval: true,
        pushToken: null, secretHash: 'secret-new', groupIds: [], osVersion: null, appIdentifier: null, appVersion: null,
        customAttributes: {}, createdAt: createdAt.toISOString(),
      });
      expect(await store.devices.findByIdentifier(2, 'Android_shared')).toEqual(theirs);
      // A document of a release before issue 15: no versions, no custom attributes.
      const old = await store.devices.findByIdentifier(1, 'Android_shared');
      expect(old).toMatchObject({ id: 1, osVersion: null, appIdentifier: null, appVersion: null, customAttributes: {} });
      expect(await store.devices.update(1, 1, { customAttributes: { region: 'North' } })).toMatchObject({ customAttributes: { region: 'North' } });
    } finally {
      await store.close();
    }
    const check = await connectMongo(mongo.url(), { dbName });
    try {
      expect(JSON.stringify(await check.collection('organizations').find({}).toArray())).not.toContain('PLAIN-CODE');
      const indexNames = async (collection: string) => (await check.collection(collection).indexes()).map((index) => index.name);
      expect(await indexNames('organizations')).not.toContain('enrollmentCode_1');
      expect(await indexNames('devices')).not.toContain('identifier_1');
    } finally {
      await check.close();
    }
  });

  it('reads through the indexes its comments name (explain)', async () => {
    const dbName = freshDatabase();
    const connection = await connectMongo(mongo.url(), { dbName });
    const store = new MongoDirectoryStore(connection);
    try {
      await store.start();
      const plan = async (collection: string, filter: object, sort?: object) => {
        const cursor = connection.collection(collection).find(filter);
        return planReads(await (sort ? cursor.sort(sort as never) : cursor).explain('queryPlanner'));
      };
      expect(await plan('devices', { orgId: 1, identifier: 'Android_1' })).toEqual({ indexes: ['orgId_1_identifier_1'], collectionScan: false });
      expect(await plan('devices', { secretHash: 'h' })).toEqual({ indexes: ['secretHash_1'], collectionScan: false });
      expect(await plan('devices', { orgId: 1 }, { _id: 1 })).toEqual({ indexes: ['orgId_1__id_1'], collectionScan: false });
      expect(await plan('forms', { orgId: 1, namespace: 'n' })).toEqual({ indexes: ['orgId_1_namespace_1'], collectionScan: false });
      expect(await plan('form_versions', { orgId: 1, formId: 2, revision: 1 })).toEqual({ indexes: ['orgId_1_formId_1_revision_1'], collectionScan: false });
      expect(await plan('form_versions', { orgId: 1, formId: 2 })).toEqual({ indexes: ['orgId_1_formId_1_revision_1'], collectionScan: false });
      expect(await plan('groups', { orgId: 1, isDefault: true })).toEqual({ indexes: ['orgId_1'], collectionScan: false });
      expect(await plan('groups', { orgId: 1, name: 'g' })).toEqual({ indexes: ['orgId_1_name_1'], collectionScan: false });
      expect(await plan('api_tokens', { tokenHash: 't', revokedAt: null })).toEqual({ indexes: ['tokenHash_1'], collectionScan: false });
      expect(await plan('organizations', { enrollmentCodeHash: 'e' })).toEqual({ indexes: ['enrollmentCodeHash_1'], collectionScan: false });
    } finally {
      await store.close();
    }
  });
});
