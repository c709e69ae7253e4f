import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@formcast/storage';
import { uniqueName } from '@formcast/testing';
import { SqliteResourceStore, openResourceStore, resourceMigrations } from '../../src/store';
import { describeResourceStoreContract } from './resource-store.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'resource-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const newDatabaseFile = () => join(dataDir, uniqueName('resources'), 'resources.sqlite');

describeResourceStoreContract('SqliteResourceStore in memory', async () => new SqliteResourceStore(':memory:'));

describeResourceStoreContract('SqliteResourceStore on a file', async () => new SqliteResourceStore(newDatabaseFile()));

describeResourceStoreContract(
  'SqliteResourceStore on a database opened by the caller',
  async () => new SqliteResourceStore(openSqlite(':memory:', resourceMigrations)),
);

describe('SqliteResourceStore on a file, closed and reopened', () => {
  it('keeps resources and their bytes, and keeps counting ids where it stopped', async () => {
    const file = newDatabaseFile();
    const before = new SqliteResourceStore(file);
    const bytes = Buffer.from('durable bytes');
    const created = await before.createResource(
      5,
      {
        description: 'durable',
        file: { originalFilename: 'd.txt', contentType: 'text/plain', bytes, sha256: 'x', identifier: randomUUID(), contentSummary: [] },
      },
      randomUUID(),
    );
    await before.close();

    const after = new SqliteResourceStore(file);
    try {
      expect(await after.listResources(5)).toEqual([created]);
      expect((await after.readResourceFile(5, created.id))?.bytes.equals(bytes)).toBe(true);
      const next = await after.createResource(
        5,
        { description: 'next', file: { originalFilename: 'n.txt', contentType: 'text/plain', bytes, sha256: 'x', identifier: randomUUID(), contentSummary: [] } },
        randomUUID(),
      );
      expect(next.id).toBeGreaterThan(created.id);
    } finally {
      await after.close();
    }
  });

  it('removes the bytes with the resource (no orphan BLOB rows)', async () => {
    const db = openSqlite(':memory:', resourceMigrations);
    const store = new SqliteResourceStore(db);
    const created = await store.createResource(
      5,
      { description: '', file: { originalFilename: 'a', contentType: 'text/plain', bytes: Buffer.from('a'), sha256: 'x', identifier: randomUUID(), contentSummary: [] } },
      randomUUID(),
    );
    expect(db.prepare('SELECT COUNT(*) AS n FROM resource_files').get()).toEqual({ n: 1 });
    await store.deleteResource(5, created.id);
    expect(db.prepare('SELECT COUNT(*) AS n FROM resource_files').get()).toEqual({ n: 0 });
    await store.close();
  });
});

describe('openResourceStore without a MongoDB URL', () => {
  it('opens SQLite in the file given, creating it', async () => {
    const file = newDatabaseFile();
    const store = await openResourceStore({ mongoUrl: undefined, sqliteFile: file });
    try {
      expect(store).toBeInstanceOf(SqliteResourceStore);
      expect(existsSync(file)).toBe(true);
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
