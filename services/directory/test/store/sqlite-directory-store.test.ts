import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@formcast/storage';
import { uniqueName } from '@formcast/testing';
import { SqliteDirectoryStore, directoryMigrations, openDirectoryStore } from '../../src/store';
import { describeDirectoryStoreContract } from './directory-store.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'directory-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const newDatabaseFile = () => join(dataDir, uniqueName('directory'), 'directory.sqlite');

describeDirectoryStoreContract('SqliteDirectoryStore in memory', async () => new SqliteDirectoryStore(':memory:'));

describeDirectoryStoreContract('SqliteDirectoryStore on a file', async () => new SqliteDirectoryStore(newDatabaseFile()));

describeDirectoryStoreContract(
  'SqliteDirectoryStore on a database opened by the caller',
  async () => new SqliteDirectoryStore(openSqlite(':memory:', directoryMigrations)),
);

describe('SqliteDirectoryStore on a file, closed and reopened', () => {
  it('keeps every record, and keeps counting ids where it stopped', async () => {
    const file = newDatabaseFile();
    const before = new SqliteDirectoryStore(file);
    const { organization, token } = await before.createOrganization({
      name: 'Acme',
      enrollmentCode: 'ENROLL-DURABLE',
      tokenHash: 'hash-durable',
      tokenLabel: 'first',
    });
    const orgId = organization.id;
    const [north] = await before.createGroups(orgId, ['North']);
    const form = await before.createForm({
      orgId,
      name: 'Inspection',
      namespace: 'http://forms.example.com/durable',
      description: '',
      definition: { type: 'root', title: 'Inspection', children: [{ identifier: 'q', type: 'text' }] },
      groupId: north!.id,
    });
    const device = await before.enrollDevice({
      orgId,
      identifier: 'Android_durable',
      owner: 'Sam',
      description: '',
      pushToken: null,
      secretHash: 'secret-durable',
    });
    await before.updateGroup(orgId, north!.id, { deviceIds: [device.id] });
    const groups = await before.listGroups(orgId);
    const devices = await before.listDevices(orgId);
    await before.close();

    const after = new SqliteDirectoryStore(file);
    try {
      expect(await after.getOrganization(orgId)).toEqual(organization);
      expect(await after.listApiTokens(orgId)).toEqual([token]);
      expect(await after.findOrgIdByTokenHash('hash-durable')).toBe(orgId);
      expect(await after.listGroups(orgId)).toEqual(groups);
      expect(await after.listDevices(orgId)).toEqual(devices);
      expect(await after.findDeviceBySecretHash('secret-durable')).toEqual(devices[0]);
      expect(await after.listForms(orgId)).toEqual([form]);

      const [south] = await after.createGroups(orgId, ['South']);
      expect(south!.id).toBeGreaterThan(Math.max(...groups.map((g) => g.id)));
    } finally {
      await after.close();
    }
  });

  it('closes once, however often close() is called', async () => {
    const store = new SqliteDirectoryStore(newDatabaseFile());
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
    await expect(store.ping()).rejects.toThrow();
  });
});

describe('openDirectoryStore without a MongoDB URL', () => {
  it('opens SQLite in the file given, creating it', async () => {
    const file = newDatabaseFile();
    const store = await openDirectoryStore({ mongoUrl: undefined, sqliteFile: file });
    try {
      expect(store).toBeInstanceOf(SqliteDirectoryStore);
      expect(existsSync(file)).toBe(true);
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
