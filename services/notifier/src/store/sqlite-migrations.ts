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
];
