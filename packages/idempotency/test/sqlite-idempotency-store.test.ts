import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, type SqliteDatabase } from '@formcast/storage';
import { keyLifetimeMs } from '../src/idempotency-store';
import { SqliteIdempotencyStore } from '../src/sqlite-idempotency-store';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';

describeIdempotencyStoreContract('SqliteIdempotencyStore', async () => new SqliteIdempotencyStore(':memory:'));

describe('SqliteIdempotencyStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'idempotency-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  it('keeps keys in its file across a restart', async () => {
    const file = join(dir, 'keys.sqlite');
    const first = new SqliteIdempotencyStore(file);
    await first.claim(1, 'k', 'fp', 'cmd-1', new Date());
    await first.complete(1, 'k', { ok: true, value: { id: 1 } });
    await first.close();

    const second = new SqliteIdempotencyStore(file);
    try {
      await expect(second.claim(1, 'k', 'fp', 'cmd-2', new Date())).resolves.toEqual({ kind: 'replay', reply: { ok: true, value: { id: 1 } } });
    } finally {
      await second.close();
    }
  });

  it('adds its table to a database it is handed, and leaves that open at close', async () => {
    const db: SqliteDatabase = openSqlite(join(dir, 'service.sqlite'), [{ version: 1, up: 'CREATE TABLE things (id INTEGER PRIMARY KEY)' }]);
    try {
      const store = new SqliteIdempotencyStore(db);
      await store.claim(1, 'k', 'fp', 'cmd-1', new Date());
      await store.close();
      expect(db.open).toBe(true);
      expect(db.prepare('SELECT count(*) AS n FROM idempotency_keys').get()).toEqual({ n: 1 });
      expect(db.pragma('user_version', { simple: true })).toBe(1); // the service's migrations untouched
      new SqliteIdempotencyStore(db); // a second time: the table is there already
    } finally {
      db.close();
    }
  });

  it('prunes expired keys as it claims, every pruneEvery-th claim', async () => {
    const store = new SqliteIdempotencyStore(':memory:', { pruneEvery: 3 });
    const t0 = new Date('2030-01-01T00:00:00.000Z');
    const later = new Date(t0.getTime() + keyLifetimeMs + 1);
    try {
      await store.claim(1, 'old-1', 'fp', 'c1', t0);
      await store.claim(1, 'old-2', 'fp', 'c2', t0);
      await store.claim(1, 'new-1', 'fp', 'c3', later); // the third claim prunes
      await expect(store.prune(later, 100)).resolves.toBe(0);
    } finally {
      await store.close();
    }
  });
});
