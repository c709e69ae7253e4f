import type { Migration } from '@formcast/storage';

/**
 * The notifier's SQLite schema (embedded mode), one step per release that changes it.
 * Never edit a step that has shipped: add the next one.
 */
export const badgeMigrations: Migration[] = [
  {
    version: 1,
    up: `
      -- record, badge: a device's outstanding oneshots (the badge is their count)
      CREATE TABLE outstanding_oneshots (
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        oneshot_id INTEGER NOT NULL,
        PRIMARY KEY (org_id, device_id, oneshot_id)
      ) STRICT, WITHOUT ROWID;

      -- record: tombstones of ended oneshots, ended_at in epoch ms
      CREATE TABLE ended_oneshots (
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        oneshot_id INTEGER NOT NULL,
        ended_at INTEGER NOT NULL,
        PRIMARY KEY (org_id, device_id, oneshot_id)
      ) STRICT, WITHOUT ROWID;
      -- the periodic sweep of expired tombstones
      CREATE INDEX ended_oneshots_by_time ON ended_oneshots (ended_at);
    `,
  },
  {
    version: 2,
    up: `
      -- record, releaseAnnouncement: oneshots announced (announced_at in epoch ms), so each is
      -- announced once; dropped when it ends, swept with the tombstones after the TTL
      CREATE TABLE announced_oneshots (
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        oneshot_id INTEGER NOT NULL,
        announced_at INTEGER NOT NULL,
        PRIMARY KEY (org_id, device_id, oneshot_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX announced_oneshots_by_time ON announced_oneshots (announced_at);
    `,
  },
  {
    version: 3,
    // The badge (a device's outstanding oneshots, read after every change) from one row instead
    // of a count of the device's rows, as Redis's SCARD answers it: kept by triggers in the
    // transaction of each change. An insert that conflicts inserts nothing and counts nothing.
    up: `
      CREATE TABLE outstanding_counts (
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        total INTEGER NOT NULL,
        PRIMARY KEY (org_id, device_id)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO outstanding_counts (org_id, device_id, total)
        SELECT org_id, device_id, count(*) FROM outstanding_oneshots GROUP BY org_id, device_id;
      CREATE TRIGGER outstanding_oneshot_added AFTER INSERT ON outstanding_oneshots BEGIN
        INSERT INTO outstanding_counts (org_id, device_id, total) VALUES (NEW.org_id, NEW.device_id, 1)
          ON CONFLICT DO UPDATE SET total = total + 1;
      END;
      CREATE TRIGGER outstanding_oneshot_removed AFTER DELETE ON outstanding_oneshots BEGIN
        UPDATE outstanding_counts SET total = total - 1 WHERE org_id = OLD.org_id AND device_id = OLD.device_id;
      END;
      CREATE TRIGGER outstanding_oneshot_never_changes BEFORE UPDATE ON outstanding_oneshots BEGIN
        SELECT RAISE(ABORT, 'an outstanding oneshot row is added or removed, never changed');
      END;
    `,
  },
];
