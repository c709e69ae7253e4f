import { countersMigration, type Migration } from '@formcast/storage';

/** The push service's SQLite file, one version per step; never edit a released step. */
export const pushMigrations: Migration[] = [
  countersMigration(1),
  {
    version: 2,
    up: `
      CREATE TABLE oneshots (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        device_identifier TEXT NOT NULL,
        form_id INTEGER NOT NULL,
        template_namespace TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        payload TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('outstanding', 'revoked', 'completed')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- a device's outstanding ones (listing, counting) and an organization's (listing)
      CREATE INDEX oneshots_device_state ON oneshots (org_id, device_id, state, id);
      CREATE INDEX oneshots_org_state ON oneshots (org_id, state, id);
      CREATE TABLE submissions (
        oneshot_id INTEGER PRIMARY KEY REFERENCES oneshots (id),
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        answers TEXT NOT NULL,
        submitted_at TEXT NOT NULL
      );
      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    // The commands applied lately (see CommandWindow), each with the oneshots it changed,
    // in order: enough to answer a repeat, whatever the size of their payloads.
    up: `
      CREATE TABLE applied_commands (
        command_id TEXT PRIMARY KEY,
        oneshot_ids TEXT NOT NULL,
        applied_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX applied_commands_by_time ON applied_commands (applied_at);
    `,
  },
];
