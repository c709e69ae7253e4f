import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashSecret } from '@formcast/platform';
import { nextSqliteId, openSqlite } from '@formcast/storage';
import { uniqueName } from '@formcast/testing';
import { newEnrolledDevice } from '../../src/domain/device-rules';
import { newForm } from '../../src/domain/form-rules';
import { foundOrganization } from '../../src/domain/organization-rules';
import type { FormDefinition } from '../../src/domain/records';
import { SqliteDirectoryStore, directoryMigrations, openDirectoryStore } from '../../src/store';
import { describeDirectoryStoreContract } from './directory-store.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'directory-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

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
    const createdAt = new Date().toISOString();
    const { organization, token } = await before.organizations.create(
      foundOrganization({ name: 'Acme', enrollmentCodeHash: 'ENROLL-DURABLE', tokenHash: 'hash-durable' }, createdAt),
    );
    const orgId = organization.id;
    const [north] = await before.groups.create(orgId, ['North'], randomUUID());
    const definition: FormDefinition = { type: 'root', title: 'Inspection', children: [{ identifier: 'q', type: 'text' }] };
    const form = await before.forms.create(
      newForm(definition, { orgId, groupId: north!.id, generatedNamespace: 'http://forms.example.com/durable', now: createdAt }),
      randomUUID(),
    );
    const device = await before.devices.enroll(
      newEnrolledDevice(
        { orgId, identifier: 'Android_durable', owner: 'Sam', description: '', pushToken: null, secretHash: 'secret-durable' },
        await before.groups.defaultGroupId(orgId),
        createdAt,
      ),
    );
    await before.groups.update(orgId, north!.id, () => ({ deviceIds: [device.id] }));
    const groups = await before.groups.list(orgId);
    const devices = await before.devices.list(orgId);
    await before.close();

    const after = new SqliteDirectoryStore(file);
    try {
      expect(await after.organizations.get(orgId)).toEqual(organization);
      expect(await after.organizations.listTokens(orgId)).toEqual([token]);
      expect(await after.organizations.findOrgIdByTokenHash('hash-durable')).toBe(orgId);
      expect(await after.groups.list(orgId)).toEqual(groups);
      expect(await after.devices.list(orgId)).toEqual(devices);
      expect(await after.devices.findBySecretHash('secret-durable')).toEqual(devices[0]);
      expect(await after.forms.list(orgId)).toEqual([form]);

      const [south] = await after.groups.create(orgId, ['South'], randomUUID());
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

describe('SqliteDirectoryStore applied creates', () => {
  it('forgets command ids older than 24 hours as it records new ones', async () => {
    const db = openSqlite(':memory:', directoryMigrations);
    const store = new SqliteDirectoryStore(db);
    try {
      const { organization } = await store.organizations.create(
        foundOrganization({ name: 'Acme', enrollmentCodeHash: 'ENROLL-PRUNE', tokenHash: 'hash-prune' }, new Date().toISOString()),
      );
      const orgId = organization.id;
      const [old, recent] = [randomUUID(), randomUUID()];
      await store.groups.create(orgId, ['North'], old);
      await store.groups.create(orgId, ['South'], recent);
      const appliedAt = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
      db.prepare('UPDATE applied_commands SET applied_at = ? WHERE command_id = ?').run(appliedAt(25), old);
      db.prepare('UPDATE applied_commands SET applied_at = ? WHERE command_id = ?').run(appliedAt(23), recent);

      await store.groups.create(orgId, ['East'], randomUUID());
      const kept = db.prepare('SELECT command_id FROM applied_commands').pluck().all();
      expect(kept).not.toContain(old);
      expect(kept).toContain(recent);
      expect(kept).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});

describe('SqliteDirectoryStore on a database of a release before issue 16', () => {
  const createdAt = '2030-01-01T00:00:00.000Z';

  /** A file at schema version 2: enrollment codes in clear, identifiers unique across organizations. */
  function olderDatabase(codes: string[], devices: { orgIndex: number; identifier: string }[]): { file: string; orgIds: number[] } {
    const file = newDatabaseFile();
    const db = openSqlite(file, directoryMigrations.filter((m) => m.version <= 2));
    const orgIds = codes.map((code, n) => {
      const id = nextSqliteId(db, 'organizations');
      db.prepare('INSERT INTO organizations (id, name, enrollment_code, created_at) VALUES (?, ?, ?, ?)').run(id, `Old ${n}`, code, createdAt);
      return id;
    });
    for (const { orgIndex, identifier } of devices) {
      db.prepare(
        `INSERT INTO devices (id, org_id, identifier, owner, description, pending_approval, push_token, secret_hash, created_at)
         VALUES (?, ?, ?, '', '', 1, NULL, ?, ?)`,
      ).run(nextSqliteId(db, 'devices'), orgIds[orgIndex], identifier, uniqueName('secret'), createdAt);
    }
    db.close();
    return { file, orgIds };
  }

  it('replaces every enrollment code kept in clear by its hash, leaving no trace of the code in the file', async () => {
    const { file, orgIds } = olderDatabase(['PLAIN-CODE-ONE', 'PLAIN-CODE-TWO'], []);
    const store = new SqliteDirectoryStore(file);
    try {
      expect(await store.organizations.findByEnrollmentCodeHash(hashSecret('PLAIN-CODE-ONE'))).toEqual({ id: orgIds[0], name: 'Old 0', createdAt });
      expect(await store.organizations.findByEnrollmentCodeHash(hashSecret('PLAIN-CODE-TWO'))).toEqual({ id: orgIds[1], name: 'Old 1', createdAt });
      expect(await store.organizations.findByEnrollmentCodeHash('PLAIN-CODE-ONE')).toBeNull();
    } finally {
      await store.close();
    }
    const bytes = readFileSync(file);
    expect(bytes.includes('PLAIN-CODE')).toBe(false);
    expect(bytes.includes(hashSecret('PLAIN-CODE-ONE'))).toBe(true);
  });

  it('reads its devices with no reported versions and no custom attributes, and lets them have some', async () => {
    const { file, orgIds } = olderDatabase(['CODE-V'], [{ orgIndex: 0, identifier: 'Android_old' }]);
    const store = new SqliteDirectoryStore(file);
    try {
      const old = await store.devices.findByIdentifier(orgIds[0]!, 'Android_old');
      expect(old).toMatchObject({ osVersion: null, appIdentifier: null, appVersion: null, customAttributes: {} });
      const changed = await store.devices.update(orgIds[0]!, old!.id, { appVersion: '7.1', customAttributes: { region: 'North' } });
      expect(await store.devices.get(orgIds[0]!, old!.id)).toEqual(changed);
      expect(changed).toMatchObject({ appVersion: '7.1', customAttributes: { region: 'North' } });
    } finally {
      await store.close();
    }
  });

  it('lets an identifier another organization enrolled before enroll, and still refuses it twice in one organization', async () => {
    const { file, orgIds } = olderDatabase(['CODE-A', 'CODE-B'], [{ orgIndex: 0, identifier: 'Android_shared' }]);
    const store = new SqliteDirectoryStore(file);
    try {
      const enrollment = (orgId: number) =>
        newEnrolledDevice(
          { orgId, identifier: 'Android_shared', owner: '', description: '', pushToken: null, secretHash: uniqueName('secret') },
          0,
          createdAt,
        );
      const theirs = await store.devices.enroll({ ...enrollment(orgIds[1]!), groupIds: [] });
      expect(await store.devices.findByIdentifier(orgIds[1]!, 'Android_shared')).toEqual(theirs);
      expect((await store.devices.findByIdentifier(orgIds[0]!, 'Android_shared'))?.id).not.toBe(theirs.id);
      await expect(store.devices.enroll({ ...enrollment(orgIds[1]!), groupIds: [] })).rejects.toMatchObject({ code: 'conflict' });
    } finally {
      await store.close();
    }
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
