import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@formcast/storage';
import { uniqueName } from '@formcast/testing';
import { SqliteResourceStore, openResourceStore, resourceMigrations } from '../../src/store';
import { fileChunkBytes } from '../../src/store/sqlite-resource-store';
import { describeAsyncUpdateStoreContract } from './async-update-store.contract';
import { describeResourceStoreContract } from './resource-store.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'resource-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

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

  const fileOf = (bytes: Buffer) => ({ originalFilename: 'a', contentType: 'text/plain', bytes, sha256: 'x', identifier: randomUUID(), contentSummary: [] });
  const chunkCount = (db: ReturnType<typeof openSqlite>) => (db.prepare('SELECT COUNT(*) AS n FROM resource_file_chunks').get() as { n: number }).n;

  it('keeps a file in chunks of fileChunkBytes, replaced on update and removed with the resource', async () => {
    const db = openSqlite(':memory:', resourceMigrations);
    const store = new SqliteResourceStore(db);
    const large = Buffer.from(Array.from({ length: 2 * fileChunkBytes + 5 }, (_, i) => i % 251));
    const created = await store.createResource(5, { description: '', file: fileOf(large) }, randomUUID());
    expect(chunkCount(db)).toBe(3);
    expect((await store.readResourceFile(5, created.id))?.bytes.equals(large)).toBe(true);

    await store.updateResource(5, created.id, { file: fileOf(Buffer.from('small')) }, randomUUID());
    expect(chunkCount(db)).toBe(1);
    expect((await store.readResourceFile(5, created.id))?.bytes.toString()).toBe('small');

    await store.updateResource(5, created.id, { file: fileOf(Buffer.alloc(0)) }, randomUUID());
    expect((await store.readResourceFile(5, created.id))?.bytes.length).toBe(0);

    await store.deleteResource(5, created.id);
    expect(chunkCount(db)).toBe(0);
    await store.close();
  });

  it('moves files stored whole by the earlier schema into chunks', async () => {
    const file = newDatabaseFile();
    const earlier = openSqlite(file, resourceMigrations.filter((migration) => migration.version <= 2));
    earlier
      .prepare(
        `INSERT INTO resources (id, org_id, original_filename, description, content_type, version, identifier, byte_size, sha256,
                                content_summary, command_id, created_at, updated_at)
         VALUES (1, 5, 'old.txt', '', 'text/plain', 0, 'id-1', 9, 'x', '[]', 'c-1', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
      )
      .run();
    earlier.prepare('INSERT INTO resource_files (resource_id, org_id, bytes) VALUES (1, 5, ?)').run(Buffer.from('old bytes'));
    earlier.close();

    const store = new SqliteResourceStore(file);
    try {
      expect((await store.readResourceFile(5, 1))?.bytes.toString()).toBe('old bytes');
    } finally {
      await store.close();
    }
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

describeAsyncUpdateStoreContract('SqliteResourceStore: v4 jobs', async () => new SqliteResourceStore(':memory:'));
