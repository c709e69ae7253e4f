import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@formcast/storage';
import { uniqueName } from '@formcast/testing';
import { SqliteBadgeStore, badgeMigrations, openBadgeStore } from '../../src/store';
import { describeBadgeStoreContract, TestClock } from './badge-store.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'badge-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

const newDatabaseFile = () => join(dataDir, uniqueName('notifier'), 'notifier.sqlite');

describeBadgeStoreContract('SqliteBadgeStore in memory', async (options) => new SqliteBadgeStore(':memory:', options));

describeBadgeStoreContract('SqliteBadgeStore on a file', async (options) => new SqliteBadgeStore(newDatabaseFile(), options));

describeBadgeStoreContract(
  'SqliteBadgeStore on a database opened by the caller',
  async (options) => new SqliteBadgeStore(openSqlite(':memory:', badgeMigrations), options),
);

describe('SqliteBadgeStore on a file', () => {
  it('keeps badges and tombstones across a restart', async () => {
    const file = newDatabaseFile();
    const clock = new TestClock();
    const device = { orgId: 1, deviceId: 2 };
    const before = new SqliteBadgeStore(file, { now: clock.now });
    await before.record(device, 1, 'outstanding');
    await before.record(device, 2, 'outstanding');
    await before.record(device, 3, 'ended');
    await before.close();

    const after = new SqliteBadgeStore(file, { now: clock.now });
    try {
      expect(await after.badge(device)).toBe(2);
      expect(await after.record(device, 3, 'outstanding')).toEqual({ badge: 2, outstanding: false, announce: false });
    } finally {
      await after.close();
    }
  });

  it("keeps each device's badge in a row, from the outstanding oneshots of a file written before it and through every change", async () => {
    const file = newDatabaseFile();
    const before = openSqlite(file, badgeMigrations.filter((migration) => migration.version <= 2));
    const insert = before.prepare('INSERT INTO outstanding_oneshots (org_id, device_id, oneshot_id) VALUES (?, ?, ?)');
    for (const [orgId, deviceId, oneshotId] of [[1, 2, 1], [1, 2, 2], [1, 3, 3], [4, 2, 4]]) insert.run(orgId, deviceId, oneshotId);
    before.close();

    const clock = new TestClock();
    const store = new SqliteBadgeStore(file, { now: clock.now });
    const raw = openSqlite(file, badgeMigrations);
    const counted = (orgId: number, deviceId: number) =>
      raw.prepare('SELECT count(*) FROM outstanding_oneshots WHERE org_id = ? AND device_id = ?').pluck().get(orgId, deviceId);
    const expectBadges = async (expected: Array<[orgId: number, deviceId: number, badge: number]>) => {
      for (const [orgId, deviceId, badge] of expected) {
        expect(counted(orgId, deviceId)).toBe(badge);
        expect(await store.badge({ orgId, deviceId })).toBe(badge);
      }
    };
    try {
      await expectBadges([[1, 2, 2], [1, 3, 1], [4, 2, 1], [1, 9, 0]]);
      // The same oneshot twice counts once; an ended one counts down, and is not counted again.
      expect((await store.record({ orgId: 1, deviceId: 2 }, 5, 'outstanding')).badge).toBe(3);
      expect((await store.record({ orgId: 1, deviceId: 2 }, 5, 'outstanding')).badge).toBe(3);
      expect((await store.record({ orgId: 1, deviceId: 2 }, 1, 'ended')).badge).toBe(2);
      expect((await store.record({ orgId: 1, deviceId: 2 }, 1, 'outstanding')).badge).toBe(2);
      expect((await store.record({ orgId: 1, deviceId: 3 }, 3, 'ended')).badge).toBe(0);
      await expectBadges([[1, 2, 2], [1, 3, 0], [4, 2, 1]]);
      raw.prepare('DELETE FROM outstanding_oneshots WHERE org_id = 4').run();
      await expectBadges([[4, 2, 0]]);
      expect(() => raw.prepare('UPDATE outstanding_oneshots SET device_id = 3 WHERE oneshot_id = 2').run()).toThrow(/never changed/);
    } finally {
      raw.close();
      await store.close();
    }
  });

  it("sweeps every device's expired tombstones, not only the one that changes", async () => {
    const db = openSqlite(':memory:', badgeMigrations);
    const clock = new TestClock();
    const ttl = 60_000;
    const store = new SqliteBadgeStore(db, { now: clock.now, tombstoneTtlMs: ttl });
    try {
      await store.record({ orgId: 1, deviceId: 1 }, 1, 'ended');
      clock.advance(2 * 60 * 60 * 1000);
      await store.record({ orgId: 1, deviceId: 2 }, 2, 'ended');
      const left = db.prepare('SELECT device_id, oneshot_id FROM ended_oneshots').all();
      expect(left).toEqual([{ device_id: 2, oneshot_id: 2 }]);
    } finally {
      await store.close();
    }
  });
});

describe('SqliteBadgeStore announcements', () => {
  it("sweeps every device's expired announcements, and drops one when its oneshot ends", async () => {
    const db = openSqlite(':memory:', badgeMigrations);
    const clock = new TestClock();
    const store = new SqliteBadgeStore(db, { now: clock.now, tombstoneTtlMs: 60_000 });
    try {
      await store.record({ orgId: 1, deviceId: 1 }, 1, 'outstanding', true);
      await store.record({ orgId: 1, deviceId: 3 }, 3, 'outstanding', true);
      await store.record({ orgId: 1, deviceId: 3 }, 3, 'ended');
      clock.advance(2 * 60 * 60 * 1000);
      await store.record({ orgId: 1, deviceId: 2 }, 2, 'outstanding', true);
      expect(db.prepare('SELECT device_id, oneshot_id FROM announced_oneshots').all()).toEqual([{ device_id: 2, oneshot_id: 2 }]);
    } finally {
      await store.close();
    }
  });

  it('brings a database of the first schema up to date, keeping its badges', async () => {
    const file = newDatabaseFile();
    const device = { orgId: 1, deviceId: 2 };
    const first = openSqlite(file, badgeMigrations.filter((migration) => migration.version === 1));
    first.prepare('INSERT INTO outstanding_oneshots (org_id, device_id, oneshot_id) VALUES (1, 2, 5)').run();
    first.close();

    const store = new SqliteBadgeStore(file);
    try {
      expect(await store.badge(device)).toBe(1);
      expect(await store.record(device, 5, 'outstanding', true)).toEqual({ badge: 1, outstanding: true, announce: true });
    } finally {
      await store.close();
    }
  });
});

describe('SqliteBadgeStore answers', () => {
  it('outstanding exactly when the oneshot is in the device\'s outstanding set, and the badge as its size, over any history', async () => {
    const db = openSqlite(':memory:', badgeMigrations);
    const clock = new TestClock();
    const ttl = 9_000;
    const store = new SqliteBadgeStore(db, { now: clock.now, tombstoneTtlMs: ttl });
    const inSet = db.prepare('SELECT 1 FROM outstanding_oneshots WHERE org_id = ? AND device_id = ? AND oneshot_id = ?');
    const setSize = db.prepare('SELECT count(*) FROM outstanding_oneshots WHERE org_id = ? AND device_id = ?').pluck();
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    try {
      for (let step = 0; step < 3000; step++) {
        const device = { orgId: 1 + random(2), deviceId: 1 + random(3) };
        const oneshotId = 1 + random(12);
        const state = random(3) === 0 ? 'ended' : 'outstanding';
        const change = await store.record(device, oneshotId, state);
        expect(change).toEqual({
          badge: setSize.get(device.orgId, device.deviceId),
          outstanding: inSet.get(device.orgId, device.deviceId, oneshotId) !== undefined,
          announce: false,
        });
        clock.advance(random(4) === 0 ? ttl / 3 : 1);
      }
    } finally {
      await store.close();
    }
  });
});

describe('openBadgeStore without a Redis URL', () => {
  it('opens SQLite in the file given, creating it', async () => {
    const file = newDatabaseFile();
    const store = await openBadgeStore({ redisUrl: undefined, sqliteFile: file });
    try {
      expect(store).toBeInstanceOf(SqliteBadgeStore);
      expect(existsSync(file)).toBe(true);
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
