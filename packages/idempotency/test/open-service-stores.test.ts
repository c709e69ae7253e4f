import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { closeSqlite, openSqlite, type SqliteDatabase, type StoreSettings } from '@formcast/storage';
import { useTempDir } from '@formcast/testing';
import { openServiceStores } from '../src';

/** A service's own store, on SQLite: a database with no tables. */
class ThingStore {
  closed = false;
  private readonly db: SqliteDatabase;
  constructor(readonly settings: StoreSettings) {
    this.db = openSqlite(settings.sqliteFile, []);
  }
  async close(): Promise<void> {
    await closeSqlite(this.db);
    this.closed = true;
  }
}

describe('openServiceStores on SQLite', () => {
  const tempDir = useTempDir('service-stores-');

  it("opens the service's store and its keys in files of their own under DATA_DIR", async () => {
    const dir = tempDir();
    const { store, idempotencyKeys } = await openServiceStores({ DATA_DIR: dir }, 'things', async (settings) => new ThingStore(settings));
    try {
      expect(store.settings).toEqual({ mongoUrl: undefined, mongoDbName: 'things', sqliteFile: join(dir, 'things.sqlite') });
      expect(existsSync(join(dir, 'things-idempotency.sqlite'))).toBe(true);
      await expect(idempotencyKeys.claim(1, 'key', 'fingerprint', 'command-1', new Date())).resolves.toEqual({ kind: 'new' });
    } finally {
      await idempotencyKeys.close();
      await store.close();
    }
  });

  it('closes the store again when the keys do not open', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'things-idempotency.sqlite'));
    let opened: ThingStore | undefined;
    await expect(openServiceStores({ DATA_DIR: dir }, 'things', async (settings) => (opened = new ThingStore(settings)))).rejects.toThrow();
    expect(opened?.closed).toBe(true);
  });
});
