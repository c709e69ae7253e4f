import { closeSqlite, migrateSqlite, openSqlite, SqliteQueries, type SqliteDatabase, type SqliteStatement } from '@formcast/storage';
import { defaultTombstoneTtlMs, type BadgeChange, type BadgeDevice, type BadgeStore, type BadgeStoreOptions, type OneshotState } from './badge-store';
import { badgeMigrations } from './sqlite-migrations';

/** Expired tombstones of every device are swept at most this often (each change sweeps its own device). */
const sweepIntervalMs = 60 * 60 * 1000;

type Device = [orgId: number, deviceId: number];

/**
 * Badges in SQLite (embedded mode), with the Redis adapter's semantics: a table of
 * outstanding oneshots and one of tombstones, changed in one IMMEDIATE transaction (shared
 * with the other changes of the same turn of the event loop: `SqliteQueries.writeGrouped`).
 */
export class SqliteBadgeStore implements BadgeStore {
  private readonly db: SqliteDatabase;
  private readonly tombstoneTtlMs: number;
  private readonly now: () => number;
  private readonly sql: Record<
    | 'dropExpired'
    | 'sweepExpired'
    | 'dropExpiredAnnouncements'
    | 'sweepExpiredAnnouncements'
    | 'isEnded'
    | 'addOutstanding'
    | 'removeOutstanding'
    | 'addTombstone'
    | 'takeAnnouncement'
    | 'dropAnnouncement'
    | 'count',
    SqliteStatement
  >;
  private readonly queries: SqliteQueries;
  private lastSweep = 0;
  private closed = false;

  /**
   * Takes a database file (created with its folder if missing), `':memory:'`, or a database
   * opened with `openSqlite`; brings its schema up to date and owns it from then on.
   */
  constructor(database: SqliteDatabase | string, options: BadgeStoreOptions = {}) {
    if (typeof database === 'string') {
      this.db = openSqlite(database, badgeMigrations);
    } else {
      migrateSqlite(database, badgeMigrations);
      this.db = database;
    }
    this.tombstoneTtlMs = options.tombstoneTtlMs ?? defaultTombstoneTtlMs;
    this.now = options.now ?? Date.now;
    const device = 'org_id = ? AND device_id = ?';
    this.sql = {
      dropExpired: this.db.prepare(`DELETE FROM ended_oneshots WHERE ${device} AND ended_at <= ?`),
      sweepExpired: this.db.prepare('DELETE FROM ended_oneshots WHERE ended_at <= ?'),
      dropExpiredAnnouncements: this.db.prepare(`DELETE FROM announced_oneshots WHERE ${device} AND announced_at <= ?`),
      sweepExpiredAnnouncements: this.db.prepare('DELETE FROM announced_oneshots WHERE announced_at <= ?'),
      isEnded: this.db.prepare(`SELECT 1 FROM ended_oneshots WHERE ${device} AND oneshot_id = ?`),
      addOutstanding: this.db.prepare(
        'INSERT INTO outstanding_oneshots (org_id, device_id, oneshot_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      removeOutstanding: this.db.prepare(`DELETE FROM outstanding_oneshots WHERE ${device} AND oneshot_id = ?`),
      addTombstone: this.db.prepare(
        `INSERT INTO ended_oneshots (org_id, device_id, oneshot_id, ended_at) VALUES (?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET ended_at = max(ended_at, excluded.ended_at)`,
      ),
      takeAnnouncement: this.db.prepare(
        'INSERT INTO announced_oneshots (org_id, device_id, oneshot_id, announced_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      dropAnnouncement: this.db.prepare(`DELETE FROM announced_oneshots WHERE ${device} AND oneshot_id = ?`),
      // Kept by triggers (migration 3): one row, not a count of the device's outstanding ones.
      count: this.db.prepare(`SELECT coalesce((SELECT total FROM outstanding_counts WHERE ${device}), 0)`).pluck(),
    };
    this.queries = new SqliteQueries(this.db);
  }

  async record(device: BadgeDevice, oneshotId: number, state: OneshotState, announce = false): Promise<BadgeChange> {
    const now = this.now();
    const horizon = now - this.tombstoneTtlMs;
    const result = await this.queries.writeGrouped(() =>
      this.change([device.orgId, device.deviceId], oneshotId, state, announce, now, horizon),
    );
    if (now - this.lastSweep >= sweepIntervalMs) {
      this.lastSweep = now;
      this.sql.sweepExpired.run(horizon);
      this.sql.sweepExpiredAnnouncements.run(horizon);
    }
    return result;
  }

  async releaseAnnouncement(device: BadgeDevice, oneshotId: number): Promise<void> {
    await this.queries.writeGrouped(() => this.sql.dropAnnouncement.run(device.orgId, device.deviceId, oneshotId));
  }

  /** One change, inside the caller's transaction. */
  private change(key: Device, oneshotId: number, state: OneshotState, announce: boolean, now: number, horizon: number): BadgeChange {
    this.sql.dropExpired.run(...key, horizon);
    this.sql.dropExpiredAnnouncements.run(...key, horizon);
    if (state === 'ended') {
      this.sql.removeOutstanding.run(...key, oneshotId);
      this.sql.dropAnnouncement.run(...key, oneshotId);
      this.sql.addTombstone.run(...key, oneshotId, now);
      return { badge: this.countOf(key), outstanding: false, announce: false };
    }
    // Outstanding unless it has a tombstone: a oneshot never has both (ending one removes it
    // in the same transaction that leaves its tombstone, and one with a tombstone is not added).
    const ended = this.sql.isEnded.get(...key, oneshotId) !== undefined;
    if (!ended) this.sql.addOutstanding.run(...key, oneshotId);
    const announced = announce && !ended && this.sql.takeAnnouncement.run(...key, oneshotId, now).changes === 1;
    return { badge: this.countOf(key), outstanding: !ended, announce: announced };
  }

  async badge(device: BadgeDevice): Promise<number> {
    return this.countOf([device.orgId, device.deviceId]);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await closeSqlite(this.db);
  }

  private countOf(key: Device): number {
    return this.sql.count.get(...key) as number;
  }
}
